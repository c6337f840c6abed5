// RestEndpoint: options, URLs and keys, extend(). The request hooks are in restendpointfetch.cpp.
#include "logging_p.h"
#include "paramvalue_p.h"
#include "restendpoint_p.h"

#include <QtCore/QCoreApplication>
#include <QtCore/QThread>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonDocument>
#include <QtCore/QJsonObject>
#include <QtCore/QPointer>
#include <QtNetwork/QNetworkAccessManager>

#include <typeinfo>

namespace DataClient {

namespace {

QString compactJson(const QVariant &value)
{
    const QJsonValue json = QJsonValue::fromVariant(value);
    if (json.isObject())
        return QString::fromUtf8(QJsonDocument(json.toObject()).toJson(QJsonDocument::Compact));
    if (json.isArray())
        return QString::fromUtf8(QJsonDocument(json.toArray()).toJson(QJsonDocument::Compact));
    return value.toString();
}

// The calling thread's default manager (see defaultNetworkAccessManager()).
thread_local QPointer<QNetworkAccessManager> t_defaultManager;
thread_local std::unique_ptr<QNetworkAccessManager> t_ownedManager;

// Deletes the main thread's default manager from ~QCoreApplication's post routines, while the
// application object is still whole. Among the application's children it would be deleted after
// QCoreApplication::instance() became null, while its network thread may still be delivering
// an event through the application object (tst_controller_teardown).
void deleteMainThreadManager()
{
    delete t_defaultManager.data();
}

} // namespace

RestEndpoint::RestEndpoint(const EndpointOptions &options) : d(std::make_unique<Private>())
{
    d->options = options;
    d->options.method = options.method.toUpper();
    d->path = PathTemplate(options.path);
    if (!d->path.isValid()) {
        d->error = d->path.errorString();
        qCWarning(lcRest).noquote() << "endpoint" << options.name << ":" << d->error;
    }
}

RestEndpoint::~RestEndpoint() = default;

EndpointPtr RestEndpoint::create(const EndpointOptions &options)
{
    return std::make_shared<RestEndpoint>(options);
}

const EndpointOptions &RestEndpoint::options() const
{
    return d->options;
}

QString RestEndpoint::name() const
{
    return d->options.name;
}

QByteArray RestEndpoint::method() const
{
    return d->options.method;
}

QString RestEndpoint::methodName() const
{
    return QString::fromLatin1(d->options.method);
}

QString RestEndpoint::path() const
{
    return d->options.path;
}

PathTemplate RestEndpoint::pathTemplate() const
{
    return d->path;
}

QString RestEndpoint::urlPrefix() const
{
    return d->options.urlPrefix;
}

QStringList RestEndpoint::searchParams() const
{
    return d->options.searchParams;
}

QJsonValue RestEndpoint::body() const
{
    return d->options.body;
}

QString RestEndpoint::paginationField() const
{
    return d->options.paginationField;
}

Params RestEndpoint::storeArguments(const Params &params) const
{
    const QString pageField = paginationField();
    if (pageField.isEmpty() || !params.contains(pageField))
        return params;
    Params args = params;
    args.remove(pageField);
    return args;
}

Schema RestEndpoint::schema() const
{
    return d->options.schema;
}

QString RestEndpoint::schemaKey() const
{
    return d->options.schema.isNull() ? QString() : d->options.schema.key();
}

int RestEndpoint::pollFrequency() const
{
    return d->options.pollFrequency;
}

int RestEndpoint::dataExpiryLength() const
{
    return d->options.dataExpiryLength;
}

int RestEndpoint::errorExpiryLength() const
{
    return d->options.errorExpiryLength;
}

bool RestEndpoint::optimistic() const
{
    return d->options.optimistic || bool(d->options.getOptimisticResponse);
}

bool RestEndpoint::sideEffect() const
{
    if (d->options.sideEffect)
        return *d->options.sideEffect;
    return d->options.method != "GET" && d->options.method != "HEAD";
}

Credentials RestEndpoint::credentials() const
{
    return d->options.credentials;
}

QString RestEndpoint::credentialsName() const
{
    return DataClient::credentialsName(d->options.credentials);
}

int RestEndpoint::timeout() const
{
    return d->options.timeout;
}

qint64 RestEndpoint::maxResponseBytes() const
{
    return d->options.maxResponseBytes;
}

bool RestEndpoint::validators() const
{
    return d->options.validators;
}

RetryPolicy RestEndpoint::retryPolicy() const
{
    if (d->options.retry)
        return *d->options.retry;
    // A mutation tried twice may change server data twice: only its endpoint knows it is safe.
    return sideEffect() ? RetryPolicy::none() : RetryPolicy::forReads();
}

bool RestEndpoint::refetchOnActivate() const
{
    return d->options.refetchOnActivate;
}

bool RestEndpoint::queueWhenOffline() const
{
    return d->options.queueWhenOffline;
}

bool RestEndpoint::isValid() const
{
    return d->error.isEmpty();
}

QString RestEndpoint::errorString() const
{
    return d->error;
}

QUrl RestEndpoint::url(const Params &params, QString *errorMessage) const
{
    QString error;
    const QString path = d->path.build(params, &error);
    if (path.isNull()) {
        if (errorMessage)
            *errorMessage = error;
        return {};
    }
    QString query = searchToString(d->path.extraParameters(params));
    QString text = d->options.urlPrefix + path;
    if (!query.isEmpty())
        text += (path.contains(u'?') ? u'&' : u'?') + query;
    QUrl result(text, QUrl::StrictMode);
    if (!result.isValid()) {
        if (errorMessage)
            *errorMessage = QStringLiteral("'%1' is not a valid URL (%2); check urlPrefix '%3'")
                                .arg(text, result.errorString(), d->options.urlPrefix);
        return {};
    }
    return result;
}

QString RestEndpoint::searchToString(const Params &params) const
{
    // QVariantMap iterates in key order: keys come out sorted, so equal params give equal keys.
    QStringList pairs;
    for (auto it = params.cbegin(); it != params.cend(); ++it) {
        const detail::ParamValue value = detail::readParamValue(it.value());
        const QString key = detail::percentEncode(it.key());
        switch (value.kind) {
        case detail::ParamValue::Absent:
            break;
        case detail::ParamValue::Scalar:
            pairs.append(key + u'=' + detail::percentEncode(value.scalar));
            break;
        case detail::ParamValue::List:
            for (const QString &element : value.list)
                pairs.append(key + u'=' + detail::percentEncode(element));
            break;
        case detail::ParamValue::Unsupported:
            // A map has no standard query form: its compact JSON, encoded, keeps it readable.
            pairs.append(key + u'=' + detail::percentEncode(compactJson(it.value())));
            break;
        }
    }
    return pairs.join(u'&');
}

namespace {
// Params whose key text is known from their types and values alone: strings, whole numbers and
// booleans (QVariant's == says 1 == true and 1 == 1.0, whose key texts differ; so the types must
// match too, and anything else is built every time).
bool sameKeyParams(const Params &a, const Params &b)
{
    if (a.size() != b.size())
        return false;
    for (auto i = a.cbegin(), j = b.cbegin(); i != a.cend(); ++i, ++j) {
        switch (i.value().typeId()) {
        case QMetaType::QString:
        case QMetaType::Int:
        case QMetaType::LongLong:
        case QMetaType::UInt:
        case QMetaType::ULongLong:
        case QMetaType::Bool:
            break;
        default:
            return false;
        }
        if (i.key() != j.key() || i.value().typeId() != j.value().typeId()
            || i.value() != j.value())
            return false;
    }
    return true;
}
} // namespace

QString RestEndpoint::key(const Params &params, QString *errorMessage) const
{
    // Every Controller read builds its key (a warm getResponse() spent most of its time here).
    // A plain RestEndpoint's key depends on its options and the params alone, so the
    // last one is kept; a subclass may build url() or searchToString() from state of its own,
    // so its keys are always built.
    const bool plain = typeid(*this) == typeid(RestEndpoint);
    if (plain) {
        const QMutexLocker lock(&d->keyMutex);
        if (!d->lastKey.isEmpty() && sameKeyParams(params, d->lastKeyParams))
            return d->lastKey;
    }
    Params keyParams = params;
    if (!d->options.paginationField.isEmpty())
        keyParams.remove(d->options.paginationField);
    QString key = requestKey(keyParams, errorMessage);
    if (plain && !key.isEmpty()) {
        const QMutexLocker lock(&d->keyMutex);
        d->lastKeyParams = params;
        d->lastKey = key;
    }
    return key;
}

QString RestEndpoint::requestKey(const Params &params, QString *errorMessage) const
{
    const QUrl target = url(params, errorMessage);
    if (!target.isValid())
        return {};
    return QString::fromLatin1(d->options.method) + u' ' + target.toString(QUrl::FullyEncoded);
}

std::optional<QJsonValue> RestEndpoint::optimisticResponse(const Params &params,
                                                           const QJsonValue &body,
                                                           const Store *store) const
{
    if (d->options.getOptimisticResponse)
        return d->options.getOptimisticResponse(params, body, store);
    return std::nullopt;
}

EndpointPtr RestEndpoint::extend(const EndpointOverrides &overrides) const
{
    EndpointPtr copy = clone(overrides.applyTo(d->options));
    const RestEndpoint *copied = copy.get();
    if (copied && typeid(*copied) != typeid(*this)) {
        qCWarning(lcRest) << "extend():" << metaObject()->className() << "endpoint" << name()
                          << "was copied as" << copy->metaObject()->className()
                          << "- derive the class from DataClient::EndpointBase<YourClass> so "
                             "extend() keeps it";
    }
    return copy;
}

EndpointPtr RestEndpoint::clone(const EndpointOptions &options) const
{
    return std::make_shared<RestEndpoint>(options);
}

QNetworkAccessManager *RestEndpoint::defaultNetworkAccessManager()
{
    // One per thread. The main thread's is a child of the application object, deleted when the
    // application object is (first thing, by a post routine); other threads' (and one made
    // before the application object exists) are deleted at thread exit.
    if (!t_defaultManager) {
        QCoreApplication *app = QCoreApplication::instance();
        if (app && QThread::currentThread() == app->thread()) {
            t_defaultManager = new QNetworkAccessManager(app);
            qAddPostRoutine(deleteMainThreadManager);
        } else {
            t_ownedManager = std::make_unique<QNetworkAccessManager>();
            t_defaultManager = t_ownedManager.get();
        }
    }
    return t_defaultManager;
}

namespace detail {

QString describeEndpoint(const RestEndpoint &endpoint)
{
    QString text = QString::fromLatin1(endpoint.method());
    if (!endpoint.name().isEmpty())
        text += u' ' + endpoint.name();
    text += u' ' + endpoint.urlPrefix() + endpoint.path();
    return text;
}

ConditionalRequest conditionalRequestOf(const RestEndpoint &endpoint, const RequestContext &context)
{
    return endpoint.validators() ? context.conditionalRequest() : ConditionalRequest();
}

} // namespace detail

} // namespace DataClient
