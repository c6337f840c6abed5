#include "validatortable_p.h"

namespace DataClient::detail {

void ValidatorTable::remember(const QString &key, const Validators &validators)
{
    if (validators.isEmpty())
        m_byKey.remove(key);
    else
        m_byKey.insert(key, validators);
}

namespace {

bool isWeak(const QByteArray &etag)
{
    return etag.startsWith("W/");
}

// RFC 9110 section 8.8.3.2: the same opaque tag, whether either is weak.
bool weakMatch(const QByteArray &a, const QByteArray &b)
{
    return (isWeak(a) ? a.mid(2) : a) == (isWeak(b) ? b.mid(2) : b);
}

// Whether a 304's validators describe the stored result (RFC 9111 section 4.3.4).
bool describes(const Validators &answered, const Validators &stored)
{
    if (!answered.etag.isEmpty() && !isWeak(answered.etag))
        return answered.etag == stored.etag; // strong comparison: both strong, the same tag
    if (!answered.etag.isEmpty() && !weakMatch(answered.etag, stored.etag))
        return false;
    if (!answered.lastModified.isEmpty() && answered.lastModified != stored.lastModified)
        return false;
    return true;
}

} // namespace

ValidatorTable::NotModified ValidatorTable::onNotModified(const Validators &sent,
                                                          const Validators &remembered, bool stored,
                                                          bool refetch, const Validators &answered)
{
    if (refetch)
        return NotModified::Fail; // once only: a server that always says 304 must not loop
    // A 304 vouches for the version the request named, and only that one: nothing named
    // (a condition of the endpoint's own), nothing stored, or a stored result that another
    // answer replaced since the request left, is not what it confirms.
    if (sent.isEmpty() || !stored || sent != remembered)
        return NotModified::Refetch;
    // One that names another version than the stored one confirms nothing either.
    return describes(answered, remembered) ? NotModified::Keep : NotModified::Refetch;
}

Validators ValidatorTable::afterNotModified(const Validators &remembered,
                                            const Validators &answered)
{
    return {answered.etag.isEmpty() ? remembered.etag : answered.etag,
            answered.lastModified.isEmpty() ? remembered.lastModified : answered.lastModified};
}

} // namespace DataClient::detail
