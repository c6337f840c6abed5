// The data of a ConditionalRequest, and what the endpoint does with one: sends its validators
// with a GET and records what the answer says about them.
#pragma once

#include <DataClient/conditionalrequest.h>

#include <QtCore/QSharedData>

namespace DataClient {

struct RequestInit;
struct Response;

class ConditionalRequestPrivate : public QSharedData
{
public:
    Validators validators;
    bool sent = false;
    bool notModified = false;
    Validators received;

    //! Adds the validators of \a request to \a init (a GET without a conditional header of its
    //! own) and records that they were sent. A null request does nothing.
    static void addTo(const ConditionalRequest &request, RequestInit &init);
    //! Records what \a answer says about the validators.
    static void record(const ConditionalRequest &request, const Response &answer);
};

} // namespace DataClient
