// Gadget entities of the typed-fetch tests: an Order with a QDateTime, a Decimal and a nested
// Customer gadget, and their fixtures.
#pragma once

#include <DataClient/createresource.h>
#include <DataClient/decimal.h>
#include <DataClient/entityschema.h>

#include <QtCore/QDateTime>
#include <QtCore/QJsonArray>
#include <QtCore/QJsonObject>

struct Customer
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QString name MEMBER name)
public:
    int id = 0;
    QString name;
    static constexpr auto key = "Customer";
    friend bool operator==(const Customer &, const Customer &) = default;
    static constexpr auto primaryKey = "id";
};

struct Order
{
    Q_GADGET
    Q_PROPERTY(int id MEMBER id)
    Q_PROPERTY(QDateTime placedAt MEMBER placedAt)
    Q_PROPERTY(DataClient::Decimal total MEMBER total)
    Q_PROPERTY(Customer customer MEMBER customer)
public:
    int id = 0;
    QDateTime placedAt;
    DataClient::Decimal total;
    Customer customer;
    static constexpr auto key = "Order";
    static constexpr auto primaryKey = "id";
};

inline DataClient::Resource orderResource(const QString &urlPrefix)
{
    using namespace DataClient;
    const Schema customer = Schema::entity(EntitySchema::fromGadget<Customer>());
    return createResource({.path = QStringLiteral("/orders/:id"),
                           .schema = Schema::entity(EntitySchema::fromGadget<Order>().withNested(
                               QStringLiteral("customer"), customer)),
                           .urlPrefix = urlPrefix});
}

inline QJsonObject orderJson(int id, const QString &total)
{
    return {{QStringLiteral("id"), id},
            {QStringLiteral("placedAt"), QStringLiteral("2024-05-0%1T08:30:00.250Z").arg(id)},
            {QStringLiteral("total"), total},
            {QStringLiteral("customer"),
             QJsonObject {{QStringLiteral("id"), 70 + id},
                          {QStringLiteral("name"), QStringLiteral("Ada")}}}};
}
