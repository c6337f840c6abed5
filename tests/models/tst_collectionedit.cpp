// Editing a CollectionModel in a real QTableView (offscreen): a cell edit is one PATCH of that
// field, shown at once (optimistic) with one dataChanged; a refusal rolls back with one more and
// is reported; check boxes and dates; values that do not fit are refused and nothing is sent.
#include "editfixture.h"

#include <DataClient/networkerror.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonObject>
#include <QtWidgets/QApplication>
#include <QtWidgets/QLineEdit>
#include <QtWidgets/QStyle>
#include <QSignalSpy>
#include <QTest>

using namespace DataClient;
using namespace Qt::StringLiterals;

namespace {

// The check box's place in a cell, as the view's delegate computes it.
class CheckableTable : public QTableView
{
public:
    QRect checkRect(const QModelIndex &index)
    {
        QStyleOptionViewItem option;
        initViewItemOption(&option);
        option.rect = visualRect(index);
        option.features |= QStyleOptionViewItem::HasCheckIndicator;
        return style()->subElementRect(QStyle::SE_ItemViewItemCheckIndicator, &option, this);
    }
};

} // namespace

class tst_CollectionEdit : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void flagsMarkTheEditableColumns()
    {
        EditFixture f;
        QVERIFY(f.ready());
        const QModelIndex title = f.model->index(0, EditFixture::Title);
        QVERIFY(f.model->flags(title) & Qt::ItemIsEditable);
        QVERIFY(f.model->flags(f.model->index(0, EditFixture::Completed))
                & Qt::ItemIsUserCheckable);
        QVERIFY(!(f.model->flags(f.model->index(0, EditFixture::Completed)) & Qt::ItemIsEditable));
        // Only the fields asked for are editable; the pk never is by default.
        f.model->setEditable(f.todos, {u"completed"_s});
        QVERIFY(!(f.model->flags(title) & Qt::ItemIsEditable));
        QVERIFY(!f.model->setData(title, u"nope"_s));
        f.model->setEditable(EndpointPtr());
        QVERIFY(!f.model->isEditable());
        QVERIFY(
            !(f.model->flags(f.model->index(0, EditFixture::Completed)) & Qt::ItemIsUserCheckable));
    }

    void editingACellSendsOnePatchOfThatField()
    {
        EditFixture f;
        QVERIFY(f.ready());
        const QModelIndex title = f.model->index(1, EditFixture::Title);
        const QString path = f.pathOf(1);
        f.table.setCurrentIndex(title);
        f.table.edit(title);
        auto *editor = f.table.viewport()->findChild<QLineEdit *>();
        QVERIFY(editor);
        editor->setText(u"typed in the table"_s);
        QSignalSpy changed(f.model, &QAbstractItemModel::dataChanged);
        // Return commits the editor (the delegate does it from the event loop): one signal for
        // the row (at once after setData(): refusedEditRollsBackWithOneSignal).
        QTest::keyClick(editor, Qt::Key_Return);
        QTRY_COMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toModelIndex().row(), 1);
        QCOMPARE(f.model->data(title).toString(), u"typed in the table"_s);
        QTRY_COMPARE(f.api->item(u"/todos"_s, f.idOf(1)).value(u"title"_s).toString(),
                     u"typed in the table"_s);
        const auto patches = f.patches();
        QCOMPARE(patches.size(), 1);
        QCOMPARE(patches.at(0).path, path);
        QCOMPARE(patches.at(0).json().toObject(),
                 QJsonObject({{u"title"_s, u"typed in the table"_s}}));
        QCOMPARE(f.model->data(title).toString(), u"typed in the table"_s);
    }

    void refusedEditRollsBackWithOneSignal()
    {
        EditFixture f;
        QVERIFY(f.ready());
        const QModelIndex title = f.model->index(0, EditFixture::Title);
        const QString before = f.model->data(title).toString();
        QSignalSpy failed(f.model, &CollectionModel::writeFailed);
        QSignalSpy changed(f.model, &QAbstractItemModel::dataChanged);
        f.api->failNext(1, 500);
        QVERIFY(f.model->setData(title, u"refused"_s));
        QCOMPARE(changed.size(), 1);
        QCOMPARE(f.model->data(title).toString(), u"refused"_s);
        QVERIFY(failed.wait());
        QCOMPARE(changed.size(), 2); // the rollback: one more
        QCOMPARE(f.model->data(title).toString(), before);
        QCOMPARE(failed.at(0).at(0).toModelIndex(), title);
        QCOMPARE(failed.at(0).at(1).value<NetworkError>().status(), 500);
        QCOMPARE(f.api->item(u"/todos"_s, f.idOf(0)).value(u"title"_s).toString(), before);
    }

    void checkBoxClickAndSpaceToggleCompleted()
    {
        EditFixture f;
        auto table = std::make_unique<CheckableTable>();
        table->setModel(f.model);
        table->show();
        QVERIFY(QTest::qWaitForWindowExposed(table.get()));
        QTRY_VERIFY(f.model->rowCount() > 1);
        const QModelIndex done = f.model->index(0, EditFixture::Completed);
        const bool before = f.model->data(done, Qt::EditRole).toBool();
        QCOMPARE(f.model->data(done, Qt::CheckStateRole).toInt(),
                 int(before ? Qt::Checked : Qt::Unchecked));
        QVERIFY(!f.model->data(done, Qt::DisplayRole).isValid()); // no "true" beside the box

        const QPoint box = table->checkRect(done).center();
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, box);
        QCOMPARE(f.model->data(done, Qt::EditRole).toBool(), !before);
        QTRY_COMPARE(f.api->item(u"/todos"_s, f.idOf(0)).value(u"completed"_s).toBool(), !before);
        QCOMPARE(f.patches().size(), 1);
        QCOMPARE(f.patches().at(0).json().toObject(), QJsonObject({{u"completed"_s, !before}}));

        table->setCurrentIndex(done);
        QTest::keyClick(table->viewport(), Qt::Key_Space);
        QCOMPARE(f.model->data(done, Qt::EditRole).toBool(), before);
        QTRY_COMPARE(f.patches().size(), 2);
        QCOMPARE(f.patches().at(1).json().toObject(), QJsonObject({{u"completed"_s, before}}));
    }

    void dateColumnShowsLocalizedTextAndEditsADateTime()
    {
        EditFixture f;
        QVERIFY(f.ready());
        const QModelIndex created = f.model->index(0, EditFixture::CreatedAt);
        const QDateTime when = f.model->data(created, Qt::EditRole).toDateTime();
        QVERIFY(when.isValid());
        QCOMPARE(f.model->data(created, Qt::DisplayRole).toString(),
                 QLocale().toString(when.toLocalTime(), QLocale::ShortFormat));
        const QDateTime later = when.addDays(1);
        QVERIFY(f.model->setData(created, later));
        QCOMPARE(f.model->data(created, Qt::EditRole).toDateTime(), later);
        QTRY_COMPARE(f.patches().size(), 1);
        QCOMPARE(f.patches().at(0).json().toObject(),
                 QJsonObject({{u"createdAt"_s, later.toString(Qt::ISODateWithMs)}}));
    }

    void valuesThatDoNotFitAreRefusedAndNothingIsSent()
    {
        EditFixture f;
        QVERIFY(f.ready());
        const QModelIndex user = f.model->index(0, EditFixture::UserId);
        const QModelIndex done = f.model->index(0, EditFixture::Completed);
        const QVariant userBefore = f.model->data(user, Qt::EditRole);
        QSignalSpy changed(f.model, &QAbstractItemModel::dataChanged);
        QVERIFY(!f.model->setData(user, u"not a number"_s)); // a word into an int column
        QVERIFY(!f.model->setData(user, 1.5));
        QVERIFY(!f.model->setData(user, true));
        QVERIFY(!f.model->setData(done, u"yes"_s)); // only a bool is a bool
        QVERIFY(!f.model->setData(f.model->index(0, EditFixture::CreatedAt), u"tomorrow"_s));
        QVERIFY(!f.model->setData(f.model->index(0, EditFixture::Title), QVariantMap()));
        QVERIFY(!f.model->setData(user, 2, Qt::DisplayRole)); // only EditRole / CheckStateRole
        QCOMPARE(changed.size(), 0);
        QCOMPARE(f.model->data(user, Qt::EditRole), userBefore);
        // A value equal to the shown one (an editor closed unchanged) sends nothing either.
        QVERIFY(f.model->setData(f.model->index(0, EditFixture::Title),
                                 f.model->data(f.model->index(0, EditFixture::Title))));
        // The next good edit is the only request the server ever gets (and the todo, now
        // user 2's, leaves this list of user 1: docs/collections.md).
        const QString path = f.pathOf(0);
        QVERIFY(f.model->setData(user, u"2"_s));
        QTRY_COMPARE(f.patches().size(), 1);
        QCOMPARE(f.patches().at(0).json().toObject(), QJsonObject({{u"userId"_s, 2}}));
        QCOMPARE(f.patches().at(0).path, path);
        QVERIFY(f.pathOf(0) != path);
    }

    void withoutOptimisticTheAnswerShowsTheValue()
    {
        EditFixture f(false);
        QVERIFY(f.ready());
        const QModelIndex title = f.model->index(0, EditFixture::Title);
        QSignalSpy changed(f.model, &QAbstractItemModel::dataChanged);
        QVERIFY(f.model->setData(title, u"after the answer"_s));
        QCOMPARE(changed.size(), 0);
        QTRY_COMPARE(f.model->data(title).toString(), u"after the answer"_s);
        QCOMPARE(changed.size(), 1);
    }

    void updateSendsTheWholeRecord()
    {
        EditFixture f;
        f.model->setEditable(f.todos, {}, CollectionModel::WriteMethod::Update);
        QVERIFY(f.ready());
        QVERIFY(f.model->setData(f.model->index(0, EditFixture::Title), u"put"_s));
        QTRY_COMPARE(f.server.requests("PUT", f.pathOf(0)).size(), 1);
        const QJsonObject body = f.server.requests("PUT", f.pathOf(0)).at(0).json().toObject();
        QCOMPARE(body.value(u"title"_s).toString(), u"put"_s);
        QCOMPARE(body.value(u"id"_s).toInt(), f.idOf(0));
        QVERIFY(body.contains(u"completed"_s));
        QVERIFY(f.patches().isEmpty());
    }
};

QTEST_MAIN(tst_CollectionEdit)
#include "tst_collectionedit.moc"
