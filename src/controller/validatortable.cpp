#include "validatortable_p.h"

namespace DataClient::detail {

void ValidatorTable::remember(const QString &key, const Validators &validators)
{
    if (validators.isEmpty())
        m_byKey.remove(key);
    else
        m_byKey.insert(key, validators);
}

ValidatorTable::NotModified ValidatorTable::onNotModified(const Validators &sent,
                                                          const Validators &remembered, bool stored,
                                                          bool refetch)
{
    if (refetch)
        return NotModified::Fail; // once only: a server that always says 304 must not loop
    // A 304 vouches for the version the request named, and only that one: nothing named
    // (a condition of the endpoint's own), nothing stored, or a stored result that another
    // answer replaced since the request left, is not what it confirms.
    if (sent.isEmpty() || !stored || sent != remembered)
        return NotModified::Refetch;
    return NotModified::Keep;
}

} // namespace DataClient::detail
