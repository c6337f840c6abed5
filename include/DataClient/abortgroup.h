// AbortGroup: stops a set of requests at once, synchronously (like the web's AbortController).
#pragma once

#include <DataClient/global.h>

#include <QtCore/QObject>

#include <functional>
#include <memory>

namespace DataClient {

/*!
    A set of requests that can be aborted together, at once. While an AbortGroup::Scope is alive
    on a thread, every request that RestEndpoint's default fetchResponse() starts on that thread
    joins the group, and so do the later steps of those requests (the redirects they follow).
    abort() aborts every one of them before it returns: their replies are closed and their
    futures canceled without waiting for the event loop, so a request still queued in the
    network manager is never sent afterwards.

    The Controller gives each of its requests a group: destroying the Controller or resetting
    the store stops its requests this way. A copy refers to the same group. GUI thread only.
*/
class DATACLIENT_REST_EXPORT AbortGroup
{
public:
    AbortGroup();

    //! Aborts every request of the group (once each); requests that join later are aborted as
    //! they join.
    void abort() const;
    bool isAborted() const;

    //! Makes \a group the current group of this thread for the scope's lifetime (scopes nest).
    class DATACLIENT_REST_EXPORT Scope
    {
    public:
        explicit Scope(const AbortGroup &group);
        ~Scope();
        Q_DISABLE_COPY_MOVE(Scope)

    private:
        std::shared_ptr<void> m_previous;
    };

    //! The group of the innermost Scope on this thread; a group of its own when there is none.
    static AbortGroup current();

    //! For whoever starts a request: \a abort runs when the group is aborted (at once if it
    //! already was), unless \a context was destroyed first.
    void add(QObject *context, std::function<void()> abort) const;

    struct Data;

private:
    explicit AbortGroup(std::shared_ptr<Data> data);
    std::shared_ptr<Data> d;
};

} // namespace DataClient
