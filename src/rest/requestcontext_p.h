// What the rest layer does with a RequestContext: applies it to a request, writes results into it.
#pragma once

#include <DataClient/requestcontext.h>

#include <QtCore/QSharedData>

namespace DataClient {

struct RequestInit;

class RequestContextPrivate : public QSharedData
{
public:
    AbortGroup abortGroup;
    ConditionalRequest conditional;
    Headers headers;
    QDeadlineTimer deadline {QDeadlineTimer::Forever};
    int status = 0;
    qint64 bodyBytes = 0;

    /*!
        Makes \a init part of \a context's request, after getRequestInit(): the context's headers
        replace the init's same-named ones, then (when \a withValidators, the endpoint's option)
        its validators are added unless the init has a conditional header of its own, and the
        init carries the context on to fetchResponse(). Nothing changes for a null context.
    */
    static void applyTo(const RequestContext &context, RequestInit &init, bool withValidators);
    //! An exchange of \a context starts: its results go back to "no answer yet".
    static void begin(const RequestContext &context);
    //! An exchange of \a context ended with an answer of \a status (0: none) and \a bodyBytes.
    static void record(const RequestContext &context, int status, qint64 bodyBytes);
};

} // namespace DataClient
