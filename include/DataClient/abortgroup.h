// AbortGroup: stops a set of requests at once, synchronously (like the web's AbortController).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QObject>
#include <QtCore/QSharedDataPointer>

#include <functional>

namespace DataClient {

class AbortGroupPrivate;

/*!
    A set of requests that can be aborted together, at once. A request joins the group of the
    RequestContext it is given (RestEndpoint::fetch()): every exchange the default
    fetchResponse() starts for it joins, whenever it starts, and so do the later steps of those
    exchanges (the redirects they follow). abort() aborts every one of them before it returns:
    their replies are closed and their futures canceled without waiting for the event loop, so
    a request still queued in the network manager is never sent afterwards, and one that an
    endpoint sends later is not sent at all.

    A caller that owns requests (and must stop them all when it goes away or forgets what they
    were for) gives each of them a group. A copy refers to the same group. GUI thread only.
*/
class DATACLIENT_REST_EXPORT AbortGroup
{
public:
    AbortGroup();
    AbortGroup(const AbortGroup &other);
    AbortGroup(AbortGroup &&other) noexcept;
    AbortGroup &operator=(const AbortGroup &other);
    AbortGroup &operator=(AbortGroup &&other) noexcept;
    ~AbortGroup();
    void swap(AbortGroup &other) noexcept { d.swap(other.d); }

    //! Aborts every request of the group (once each); requests that join later are aborted as
    //! they join.
    void abort() const;
    bool isAborted() const;

    //! For whoever starts a request: \a abort runs when the group is aborted (at once if it
    //! already was), unless \a context was destroyed first.
    void add(QObject *context, std::function<void()> abort) const;

private:
    QExplicitlySharedDataPointer<AbortGroupPrivate> d; // copies share the one group
};

} // namespace DataClient

Q_DECLARE_SHARED(DataClient::AbortGroup)
