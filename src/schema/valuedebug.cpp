// qDebug() of Record and RowList (record.h, rowlist.h): the content JSON-like, so that
// `qDebug() << result.data` shows the rows and not just the type's name.
#include <DataClient/record.h>
#include <DataClient/rowlist.h>

#include <QtCore/QDebug>

namespace DataClient {

namespace {
void print(QDebug &debug, const QVariant &value);

void quoted(QDebug &debug, const QString &text)
{
    debug.quote() << text; // escaped as qDebug() escapes a QString
    debug.noquote();
}

void printFields(QDebug &debug, const Record &record)
{
    debug << '{';
    const QStringList keys = record.keys();
    for (qsizetype i = 0; i < keys.size(); ++i) {
        debug << (i ? ", " : "");
        quoted(debug, keys.at(i));
        debug << ": ";
        print(debug, record.value(keys.at(i)));
    }
    debug << '}';
}

void printRows(QDebug &debug, const RowList &rows)
{
    debug << '[';
    for (qsizetype i = 0; i < rows.size(); ++i) {
        debug << (i ? ", " : "");
        print(debug, rows.at(i));
    }
    debug << ']';
}

// JSON's own kinds as JSON; any other type (QDateTime, Decimal, a gadget) as its own qDebug().
void print(QDebug &debug, const QVariant &value)
{
    const QMetaType type = value.metaType();
    if (type == QMetaType::fromType<Record>()) {
        const auto *record = static_cast<const Record *>(value.constData());
        if (record->isNull())
            debug << "null";
        else
            printFields(debug, *record);
        return;
    }
    bool isList = false;
    if (const RowList rows = rowsOf(value, &isList); isList) {
        printRows(debug, rows);
        return;
    }
    switch (type.id()) {
    case QMetaType::UnknownType:
    case QMetaType::Nullptr:
        debug << "null";
        return;
    case QMetaType::QString:
        quoted(debug, value.toString());
        return;
    case QMetaType::Bool:
        debug << (value.toBool() ? "true" : "false");
        return;
    case QMetaType::Int:
    case QMetaType::UInt:
    case QMetaType::LongLong:
    case QMetaType::ULongLong:
    case QMetaType::Double:
    case QMetaType::Float:
        debug << value.toString();
        return;
    case QMetaType::QVariantMap: {
        const QVariantMap map = value.toMap();
        debug << '{';
        for (auto it = map.cbegin(); it != map.cend(); ++it) {
            debug << (it == map.cbegin() ? "" : ", ");
            quoted(debug, it.key());
            debug << ": ";
            print(debug, it.value());
        }
        debug << '}';
        return;
    }
    default:
        if (!QMetaType(type).debugStream(debug, value.constData())) // not const before Qt 6.5
            debug << value; // no operator<< for it: QDebug shows the type's name
        return;
    }
}
} // namespace

QDebug operator<<(QDebug debug, const Record &record)
{
    const QDebugStateSaver saver(debug);
    debug.noquote().nospace() << "DataClient::Record(";
    if (!record.isNull()) {
        debug << record.entityKey() << ' ';
        printFields(debug, record);
        if (record.isPending())
            debug << " pending";
    }
    debug << ')';
    return debug;
}

QDebug operator<<(QDebug debug, const RowList &rows)
{
    const QDebugStateSaver saver(debug);
    debug.noquote().nospace() << "DataClient::RowList(";
    printRows(debug, rows);
    debug << ')';
    return debug;
}

} // namespace DataClient
