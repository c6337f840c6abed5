// The entity docs/getting-started.md teaches: a Q_GADGET whose pk() reads an `int id = 0`.
// Shared by the tests of pks that cannot be computed from an answer.
#pragma once

#include <QtCore/QMetaType>
#include <QtCore/QString>

struct GadgetTodo
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString title MEMBER title)
    Q_PROPERTY(bool completed MEMBER completed)
public:
    int id = 0;
    QString title;
    bool completed = false;
    QString pk() const { return QString::number(id); }
    static constexpr auto key = "Todo";
};
