// Names of the server-convention options (QML reads and shows them) and the CSRF presets.
#include <DataClient/serverconventions.h>

#include <array>
#include <utility>

namespace DataClient {

namespace {

constexpr std::array<std::pair<KeyCase, const char *>, 3> keyCaseNames {{
    {KeyCase::AsIs, "asIs"},
    {KeyCase::SnakeCase, "snake_case"},
    {KeyCase::KebabCase, "kebab-case"},
}};

constexpr std::array<std::pair<Pagination, const char *>, 8> paginationNames {{
    {Pagination::None, "none"},
    {Pagination::PageNumber, "pageNumber"},
    {Pagination::LimitOffset, "limitOffset"},
    {Pagination::Cursor, "cursor"},
    {Pagination::Laravel, "laravel"},
    {Pagination::Spring, "spring"},
    {Pagination::JsonApi, "jsonApi"},
    {Pagination::LinkHeader, "linkHeader"},
}};

template<typename Enum, std::size_t N>
QString nameOf(const std::array<std::pair<Enum, const char *>, N> &names, Enum value)
{
    for (const auto &[known, name] : names) {
        if (known == value)
            return QString::fromLatin1(name);
    }
    return {};
}

template<typename Enum, std::size_t N>
std::optional<Enum> valueOf(const std::array<std::pair<Enum, const char *>, N> &names,
                            const QString &name)
{
    for (const auto &[known, text] : names) {
        if (name == QLatin1StringView(text))
            return known;
    }
    return std::nullopt;
}

} // namespace

QString keyCaseName(KeyCase keyCase)
{
    return nameOf(keyCaseNames, keyCase);
}

std::optional<KeyCase> keyCaseFromName(const QString &name)
{
    return valueOf(keyCaseNames, name);
}

QString paginationName(Pagination pagination)
{
    return nameOf(paginationNames, pagination);
}

std::optional<Pagination> paginationFromName(const QString &name)
{
    return valueOf(paginationNames, name);
}

Csrf Csrf::django(const QString &tokenPath)
{
    return {"csrftoken", "X-CSRFToken", tokenPath};
}

Csrf Csrf::rails(const QString &tokenPath)
{
    return {"CSRF-TOKEN", "X-CSRF-Token", tokenPath};
}

Csrf Csrf::laravel(const QString &tokenPath)
{
    return {"XSRF-TOKEN", "X-XSRF-TOKEN", tokenPath};
}

} // namespace DataClient
