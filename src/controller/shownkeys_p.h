// The keys something shows (Controller::watch(): queries and models while active), counted by
// reference: what the Controller refetches on its own when connectivity returns or the
// application becomes active again.
#pragma once

#include <DataClient/endpointoptions.h>
#include <DataClient/params.h>

#include <QtCore/QHash>
#include <QtCore/QList>
#include <QtCore/QString>

#include <utility>

namespace DataClient::detail {

class ShownKeys
{
public:
    //! One more viewer of \a key (read with \a endpoint and \a params).
    void add(const QString &key, const EndpointPtr &endpoint, const Params &params);
    //! One viewer fewer; false when \a key had none.
    bool remove(const QString &key);
    int viewers(const QString &key) const { return m_keys.value(key).viewers; }
    //! The endpoint and parameters of every shown key.
    QList<std::pair<EndpointPtr, Params>> all() const;

private:
    struct Shown
    {
        EndpointPtr endpoint;
        Params params;
        int viewers = 0;
    };
    QHash<QString, Shown> m_keys;
};

} // namespace DataClient::detail
