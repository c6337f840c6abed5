// Base of the outbox tests: the virtual-time fixture (virtualtimefixture.h: server, Controller
// on a VirtualClock with deterministic jitter, a manual Connectivity) plus a /notes collection
// whose mutation answers the test scripts, a notes resource whose mutations are optimistic and
// queue when offline, and a temporary directory for outbox files.
#pragma once

#include "virtualtimefixture.h"

#include <DataClient/outbox.h>
#include <DataClient/private/controlleroutbox_p.h>

#include <QtCore/QFile>
#include <QtCore/QTemporaryDir>

#include <memory>

class OutboxTest : public VirtualTimeTest
{
    Q_OBJECT

protected:
    std::unique_ptr<QTemporaryDir> directory;
    DataClient::Resource notes;
    //! What the server answers to mutations on /notes, in turn; then it echoes the change.
    QList<DataClient::Testing::ServerResponse> noteScript;

    static DataClient::Schema noteSchema()
    {
        using namespace Qt::StringLiterals;
        return DataClient::Schema::entity(DataClient::EntitySchema(u"Note"_s));
    }
    static QJsonObject noteJson(int id, const QString &title)
    {
        using namespace Qt::StringLiterals;
        return {{u"id"_s, id}, {u"title"_s, title}};
    }
    static DataClient::Params id(int value)
    {
        using namespace Qt::StringLiterals;
        return {{u"id"_s, value}};
    }
    static QJsonObject title(const QString &text)
    {
        using namespace Qt::StringLiterals;
        return {{u"title"_s, text}};
    }
    DataClient::Resource makeNotes(const DataClient::Headers &headers = {}) const
    {
        using namespace Qt::StringLiterals;
        return DataClient::createResource({.path = u"/notes/:id"_s,
                                           .schema = noteSchema(),
                                           .urlPrefix = server->url(),
                                           .optimistic = true,
                                           .headers = headers,
                                           .queueWhenOffline = true});
    }
    QString outboxPath() const
    {
        using namespace Qt::StringLiterals;
        return directory->filePath(u"store.outbox"_s);
    }
    //! Note \a noteId as the store shows it (optimistic layers included).
    QString shownTitle(int noteId) const
    {
        using namespace Qt::StringLiterals;
        return controller->get(noteSchema(), id(noteId)).data.toMap().value(u"title"_s).toString();
    }
    //! Notes 1 and 2 ("one", "two") committed as if the server had sent them.
    void seed()
    {
        using namespace Qt::StringLiterals;
        QVERIFY(controller
                    ->setResponse(notes.getList, {},
                                  QJsonArray {noteJson(1, u"one"_s), noteJson(2, u"two"_s)})
                    .ok());
    }
    //! Every request the server received that is not a GET, in arrival order.
    QList<DataClient::Testing::RecordedRequest> mutations() const
    {
        QList<DataClient::Testing::RecordedRequest> result;
        const auto all = server->requests();
        for (const auto &request : all) {
            if (request.method != "GET")
                result.append(request);
        }
        return result;
    }
    bool waitForMutations(qsizetype count) const
    {
        return QTest::qWaitFor([&] { return mutations().size() >= count; }, 5000);
    }
    int outboxCount() const { return controller->outbox()->count(); }

    void setUp() override
    {
        using namespace DataClient::Testing;
        using namespace Qt::StringLiterals;
        noteScript.clear();
        server->route("*", u"/notes/:id"_s, [this](const RecordedRequest &request) {
            if (!noteScript.isEmpty())
                return noteScript.takeFirst();
            QJsonObject echoed = request.json().toObject();
            echoed.insert(u"id"_s, request.pathParams.value(u"id"_s).toInt());
            return ServerResponse::json(echoed);
        });
        server->route("POST", u"/notes"_s, [this](const RecordedRequest &request) {
            QJsonObject created = request.json().toObject();
            created.insert(u"id"_s, 100 + int(server->requestCount()));
            return ServerResponse::json(created, 201);
        });
        directory = std::make_unique<QTemporaryDir>();
        QVERIFY(directory->isValid());
        notes = makeNotes();
    }
};
