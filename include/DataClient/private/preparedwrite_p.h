// PreparedWrite: a response normalized off the store's thread, waiting to be committed
// (StoreLayers::prepare() and commit(), storelayers_p.h).
#pragma once

#include <DataClient/global.h>
#include <DataClient/schemaerror.h>

#include <memory>
#include <optional>

namespace DataClient {

namespace detail {
struct WriteBatch;
}

/*!
    What StoreLayers::prepare() made of a response: normalized and checked, not yet in any store.
    Preparing touches no store, so it can run on a worker thread (parsing and normalizing a large
    response is most of a write's cost); StoreLayers::commit() then applies it on the store's thread.
    Move-only; commit it once.
*/
class DATACLIENT_STORE_EXPORT PreparedWrite
{
public:
    PreparedWrite();
    PreparedWrite(PreparedWrite &&other) noexcept;
    PreparedWrite &operator=(PreparedWrite &&other) noexcept;
    PreparedWrite(const PreparedWrite &) = delete;
    PreparedWrite &operator=(const PreparedWrite &) = delete;
    ~PreparedWrite();

    //! False when the value did not fit its schema (see error()) or nothing was prepared.
    bool ok() const { return m_batch != nullptr; }
    const std::optional<SchemaError> &error() const { return m_error; }

private:
    friend class StoreLayers;
    std::shared_ptr<detail::WriteBatch> m_batch;
    std::optional<SchemaError> m_error;
};

} // namespace DataClient
