// RestEndpoint::fetchCompact(): the answer as CompactJson, a large body parsed on a worker thread.
#include "answerfuture_p.h"
#include "logging_p.h"
#include "restendpoint_p.h"

#include <DataClient/store.h>
#include <DataClient/private/storelayers_p.h>

#include <QtCore/QPromise>
#include <QtCore/QThreadPool>

#include <typeinfo>

namespace DataClient {

namespace {

// What the default parseResponse() makes of a 2xx answer, straight into CompactJson. The fast
// parser handles the common case; anything it rejects goes through the default parser, so
// errors (and the rare input only QJsonDocument accepts) are exactly those of fetch().
CompactJson compactBody(const Response &answer, bool hasSchema, const QString &schemaKey)
{
    if (detail::isJsonBody(answer, hasSchema)) {
        detail::requireUtf8Json(answer);
        CompactJson parsed = CompactJson::parse(answer.body);
        if (!parsed.isUndefined())
            return parsed;
    }
    return CompactJson::fromJsonValue(detail::readResponseBody(answer, hasSchema, schemaKey));
}

// What a worker does with a large answer: the parse, and with ParseAndPrepare the store's
// normalization right after it (one task: no trip back to the GUI thread and out again).
struct WorkerTask
{
    Response answer;
    bool hasSchema;
    QString schemaKey;
    Schema schema;
    Params args; // the store's arguments (storeArguments())
    bool prepare;
    QString described; // the endpoint, for the log (only when lcRest debug is on)

    CompactAnswer run() const
    {
        CompactAnswer compact {compactBody(answer, hasSchema, schemaKey), true};
        if (prepare) {
            qCDebug(lcRest).noquote() << described << ": normalizing off the GUI thread";
            compact.prepared = std::make_shared<PreparedWrite>(
                StoreLayers::prepare(schema, args, compact.value));
        }
        return compact;
    }
};

bool parsesOnWorker(const Response &answer, bool hasSchema)
{
    return answer.isOk() && answer.body.size() >= RestEndpoint::OffThreadBodySize
        && detail::isJsonBody(answer, hasSchema);
}

} // namespace

bool RestEndpoint::readsOffThread() const
{
    // The key case and a pagination preset are read by parseResponse(), on this thread, for
    // every class of endpoint.
    return answersOffThread() && d->options.keyCase == KeyCase::AsIs
        && d->options.pagination == Pagination::None;
}

bool RestEndpoint::answersOffThread() const
{
    return typeid(*this) == typeid(RestEndpoint) && !d->options.process;
}

QFuture<CompactAnswer> RestEndpoint::fetchCompact(QNetworkAccessManager *network,
                                                  const Params &params, const QJsonValue &body,
                                                  const RequestContext &context,
                                                  CompactAnswer::Work work) const
{
    std::exception_ptr refused;
    QString refusalNote;
    QFuture<Response> response = send(network, params, body, context, &refused, &refusalNote);
    if (refused)
        return QtFuture::makeExceptionalFuture<CompactAnswer>(refused);

    return detail::answerFuture<CompactAnswer>(
        response, this, detail::conditionalRequestOf(*this, context), refusalNote,
        [self = this, keepAlive = weak_from_this().lock(), params, offThread = readsOffThread(),
         work](const Response &answer, const auto &promise) {
            const bool hasSchema = !self->schema().isNull();
            if (!offThread) {
                const QJsonValue value = self->process(self->parseResponse(answer), params);
                promise->addResult(CompactAnswer {CompactJson::fromJsonValue(value), false});
                return false;
            }
            if (!parsesOnWorker(answer, hasSchema)) {
                promise->addResult(
                    CompactAnswer {compactBody(answer, hasSchema, self->schemaKey()), false});
                return false;
            }
            qCDebug(lcRest).noquote() << detail::describeEndpoint(*self) << ": parsing"
                                      << answer.body.size() << "bytes off the GUI thread";
            // The worker gets copies only: the endpoint may be gone when it runs.
            WorkerTask task {answer, hasSchema, self->schemaKey(), self->schema(), {}, false, {}};
            task.prepare
                = work == CompactAnswer::ParseAndPrepare && task.schema.normalizesAnywhere();
            if (task.prepare) {
                task.args = self->storeArguments(params);
                if (lcRest().isDebugEnabled())
                    task.described = detail::describeEndpoint(*self);
            }
            QThreadPool::globalInstance()->start([promise, task = std::move(task)] {
                try {
                    promise->addResult(task.run());
                } catch (...) {
                    promise->setException(std::current_exception());
                }
                promise->finish();
            });
            return true;
        });
}

} // namespace DataClient
