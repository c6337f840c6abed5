// A CollectionModel under Qt's proxies and forms: a sorted QSortFilterProxyModel keeps its sort
// through edits and server changes without a model reset; a QDataWidgetMapper form edits one row
// through the same write path (one PATCH of the changed field).
#include "editfixture.h"

#include <QtCore/QJsonObject>
#include <QtCore/QSortFilterProxyModel>
#include <QtWidgets/QApplication>
#include <QtWidgets/QCheckBox>
#include <QtWidgets/QDataWidgetMapper>
#include <QtWidgets/QLineEdit>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

QStringList column(const QAbstractItemModel &model, int column)
{
    QStringList values;
    for (int row = 0; row < model.rowCount(); ++row)
        values.append(model.index(row, column).data().toString());
    return values;
}

QStringList sorted(QStringList values)
{
    std::sort(values.begin(), values.end());
    return values;
}

} // namespace

class tst_CollectionProxies : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void sortedProxyKeepsItsSortWithoutReset()
    {
        EditFixture f;
        QSortFilterProxyModel proxy;
        proxy.setSourceModel(f.model);
        proxy.setDynamicSortFilter(true);
        proxy.setSortCaseSensitivity(Qt::CaseSensitive);
        QAbstractItemModelTester proxyTester(
            &proxy, QAbstractItemModelTester::FailureReportingMode::QtTest);
        Q_UNUSED(proxyTester);
        f.table.setModel(&proxy);
        f.table.setSortingEnabled(true);
        f.table.sortByColumn(EditFixture::Title, Qt::AscendingOrder);
        QVERIFY(f.ready());
        QCOMPARE(column(proxy, EditFixture::Title), sorted(column(proxy, EditFixture::Title)));

        QSignalSpy proxyReset(&proxy, &QAbstractItemModel::modelReset);
        QSignalSpy sourceReset(f.model, &QAbstractItemModel::modelReset);
        // An edit through the proxy moves the row to its sorted place ("A..." sorts first).
        const QModelIndex last = proxy.index(proxy.rowCount() - 1, EditFixture::Title);
        const int id = last.siblingAtColumn(0)
                           .data(CollectionModel::EntityRole)
                           .toMap()
                           .value(u"id"_s)
                           .toInt();
        QVERIFY(proxy.setData(last, u"A first"_s));
        QCOMPARE(proxy.index(0, EditFixture::Title).data().toString(), u"A first"_s);
        QCOMPARE(column(proxy, EditFixture::Title), sorted(column(proxy, EditFixture::Title)));
        QTRY_COMPARE(f.api->item(u"/todos"_s, id).value(u"title"_s).toString(), u"A first"_s);

        // A change made elsewhere (another request) re-sorts the same way.
        const QModelIndex first = proxy.index(1, EditFixture::Title);
        const int other = first.data(CollectionModel::EntityRole).toMap().value(u"id"_s).toInt();
        f.controller.fetch(f.todos.partialUpdate, {{u"id"_s, other}},
                           QJsonObject {{u"title"_s, u"zz last"_s}});
        QCOMPARE(proxy.index(proxy.rowCount() - 1, EditFixture::Title).data().toString(),
                 u"zz last"_s);
        QCOMPARE(column(proxy, EditFixture::Title), sorted(column(proxy, EditFixture::Title)));
        QTRY_COMPARE(f.api->item(u"/todos"_s, other).value(u"title"_s).toString(), u"zz last"_s);
        QCOMPARE(proxyReset.size(), 0);
        QCOMPARE(sourceReset.size(), 0);
    }

    void mapperEditsThroughTheModel()
    {
        EditFixture f;
        QVERIFY(f.ready());
        QWidget form;
        auto *title = new QLineEdit(&form);
        auto *done = new QCheckBox(&form);
        QDataWidgetMapper mapper;
        mapper.setModel(f.model);
        mapper.setSubmitPolicy(QDataWidgetMapper::ManualSubmit);
        mapper.addMapping(title, EditFixture::Title);
        mapper.addMapping(done, EditFixture::Completed);
        mapper.setCurrentIndex(2);
        QCOMPARE(title->text(), f.model->index(2, EditFixture::Title).data().toString());
        const bool wasDone = f.model->index(2, EditFixture::Completed).data(Qt::EditRole).toBool();
        QCOMPARE(done->isChecked(), wasDone);

        title->setText(u"from the form"_s);
        QVERIFY(mapper.submit());
        QCOMPARE(f.model->index(2, EditFixture::Title).data().toString(), u"from the form"_s);
        QTRY_COMPARE(f.api->item(u"/todos"_s, f.idOf(2)).value(u"title"_s).toString(),
                     u"from the form"_s);
        // Only the changed field was sent: the unchanged check box sent nothing.
        QCOMPARE(f.patches().size(), 1);
        QCOMPARE(f.patches().at(0).json().toObject(),
                 QJsonObject({{u"title"_s, u"from the form"_s}}));

        // A change from elsewhere shows in the form.
        f.controller.fetch(f.todos.partialUpdate, {{u"id"_s, f.idOf(2)}},
                           QJsonObject {{u"completed"_s, !wasDone}});
        QCOMPARE(done->isChecked(), !wasDone);
        QTRY_COMPARE(f.patches().size(), 2);
    }
};

QTEST_MAIN(tst_CollectionProxies)
#include "tst_collectionproxies.moc"
