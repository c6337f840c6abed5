// ConditionalRequest: what a read sends of the validators it was given, and what its answer
// said about them. Whether to use them, and what a 304 means, the caller that stores answers
// decides.
#include "conditionalrequest_p.h"
#include "logging_p.h"

#include <DataClient/conditionalrequest.h>
#include <DataClient/requestinit.h>
#include <DataClient/response.h>

#include <algorithm>
#include <utility>

namespace DataClient {

namespace {

// A value sent back as it came, so it must be one short line: anything else is left out
// rather than refused (the answer itself is fine; it just cannot be revalidated).
QByteArray usableValidator(const Response &response, QByteArrayView name)
{
    const QByteArray value = response.header(name).trimmed();
    const bool control = std::any_of(value.cbegin(), value.cend(), [](char c) {
        return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
    });
    if (value.size() > Validators::MaxLength || control) {
        qCDebug(lcRest).noquote() << response.method << response.url.toString() << ": its"
                                  << name.toByteArray() << "of" << value.size()
                                  << "bytes is not kept (longer than" << Validators::MaxLength
                                  << "bytes, or a control character)";
        return {};
    }
    return value;
}

Validators validatorsIn(const Response &response)
{
    return {usableValidator(response, "etag"), usableValidator(response, "last-modified")};
}

} // namespace

Validators Validators::of(const Response &response)
{
    if (!response.isOk())
        return {};
    return validatorsIn(response);
}

ConditionalRequest::ConditionalRequest(const Validators &validators)
    : d(new ConditionalRequestPrivate)
{
    d->validators = validators;
}

ConditionalRequest::ConditionalRequest() = default;
ConditionalRequest::ConditionalRequest(const ConditionalRequest &other) = default;
ConditionalRequest::ConditionalRequest(ConditionalRequest &&other) noexcept = default;
ConditionalRequest &ConditionalRequest::operator=(const ConditionalRequest &other) = default;
ConditionalRequest &ConditionalRequest::operator=(ConditionalRequest &&other) noexcept = default;
ConditionalRequest::~ConditionalRequest() = default;

Validators ConditionalRequest::validators() const
{
    return d ? d->validators : Validators();
}

bool ConditionalRequest::sent() const
{
    return d && d->sent;
}

Validators ConditionalRequest::received() const
{
    return d ? d->received : Validators();
}

bool ConditionalRequest::notModified() const
{
    return d && d->notModified;
}

void ConditionalRequestPrivate::addTo(const ConditionalRequest &request, RequestInit &init)
{
    ConditionalRequestPrivate *d = request.d.data();
    if (!d || d->validators.isEmpty() || init.method != "GET")
        return;
    // The endpoint's own conditional request wins: one condition, never two of each.
    if (init.hasHeader("if-none-match") || init.hasHeader("if-modified-since"))
        return;
    if (!d->validators.etag.isEmpty())
        init.headers.append({QByteArrayLiteral("If-None-Match"), d->validators.etag});
    if (!d->validators.lastModified.isEmpty())
        init.headers.append({QByteArrayLiteral("If-Modified-Since"), d->validators.lastModified});
    d->sent = true;
}

void ConditionalRequestPrivate::record(const ConditionalRequest &request, const Response &answer)
{
    ConditionalRequestPrivate *d = request.d.data();
    if (!d || answer.method != "GET")
        return;
    d->notModified = answer.status == 304;
    // A 304 carries the validators of the version it confirms (RFC 9110 section 15.4.5).
    d->received = d->notModified ? validatorsIn(answer) : Validators::of(answer);
}

} // namespace DataClient
