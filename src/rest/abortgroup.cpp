#include <DataClient/abortgroup.h>

#include <QtCore/QList>
#include <QtCore/QPointer>
#include <QtCore/QSharedData>

#include <utility>

namespace DataClient {

class AbortGroupPrivate : public QSharedData
{
public:
    struct Member
    {
        QPointer<QObject> context;
        std::function<void()> abort;
    };
    QList<Member> members;
    bool aborted = false;
};

using Data = AbortGroupPrivate;

AbortGroup::AbortGroup() : d(new Data) { }
AbortGroup::AbortGroup(const AbortGroup &other) = default;
AbortGroup::AbortGroup(AbortGroup &&other) noexcept = default;
AbortGroup &AbortGroup::operator=(const AbortGroup &other) = default;
AbortGroup &AbortGroup::operator=(AbortGroup &&other) noexcept = default;
AbortGroup::~AbortGroup() = default;

void AbortGroup::abort() const
{
    d->aborted = true;
    // An abort may finish a request whose continuation starts another one in this group:
    // take the members first, and loop until none are left.
    while (!d->members.isEmpty()) {
        const QList<Data::Member> members = std::exchange(d->members, {});
        for (const Data::Member &member : members) {
            if (member.context)
                member.abort();
        }
    }
}

bool AbortGroup::isAborted() const
{
    return d->aborted;
}

void AbortGroup::add(QObject *context, std::function<void()> abort) const
{
    if (d->aborted) {
        abort();
        return;
    }
    // Forget members whose requests ended, so a long-lived group does not grow.
    d->members.removeIf([](const Data::Member &member) { return member.context.isNull(); });
    d->members.append({context, std::move(abort)});
}

} // namespace DataClient
