// Fuzz target: a path template compiled from the input, then built and matched with parameters
// drawn from the same bytes (docs/reliability.md). Templates come from app code, parameters
// often from users: neither may crash, and a build that succeeds must match its own template.
#include "fuzzsupport.h"

#include <DataClient/pathtemplate.h>

#include <QtCore/QDebug>
#include <QtCore/QStringList>

#include <fuzzer/FuzzedDataProvider.h>

using namespace DataClient;

namespace {

QString text(FuzzedDataProvider &input, size_t maxLength)
{
    return QString::fromStdString(input.ConsumeRandomLengthString(maxLength));
}

// Every kind of value a parameter may hold: strings (incl. dot segments, '/', '%2F'), numbers,
// booleans, null, lists and maps (refused, but must not crash).
QVariant value(FuzzedDataProvider &input)
{
    switch (input.ConsumeIntegralInRange(0, 6)) {
    case 0:
        return input.ConsumeIntegral<qint64>();
    case 1:
        return input.ConsumeBool();
    case 2:
        return QVariant::fromValue(nullptr);
    case 3: {
        QStringList list;
        for (int n = input.ConsumeIntegralInRange(0, 4); n > 0; --n)
            list.append(text(input, 16));
        return list;
    }
    case 4:
        return QVariantMap {{text(input, 8), text(input, 8)}};
    case 5:
        return input.ConsumeFloatingPoint<double>();
    default:
        return text(input, 32);
    }
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    FuzzSupport::silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FuzzedDataProvider input(data, size);
    const PathTemplate compiled(text(input, 128));
    if (!compiled.isValid()) {
        FUZZ_CHECK(!compiled.errorString().isEmpty());
        FUZZ_CHECK(compiled.errorPosition() >= 0);
        FUZZ_CHECK(compiled.errorPosition() <= compiled.pattern().size());
        return 0;
    }
    FUZZ_CHECK(compiled.errorString().isEmpty());

    // Mostly the template's own names (so build() gets far), sometimes others.
    const QStringList names = compiled.parameterNames();
    Params params;
    for (int n = input.ConsumeIntegralInRange(0, 6); n > 0; --n) {
        const bool own = !names.isEmpty() && input.ConsumeIntegralInRange(0, 3) > 0;
        const QString name = own
            ? names.at(input.ConsumeIntegralInRange<qsizetype>(0, names.size() - 1))
            : text(input, 8);
        params.insert(name, value(input));
    }

    QString error;
    const QString path = compiled.build(params, &error);
    if (path.isNull()) {
        FUZZ_CHECK(!error.isEmpty());
    } else if (!compiled.hasQueryTemplate()) {
        // What build() writes, match() reads back (values are percent-encoded, never syntax).
        // Not checked with a query template: its literal keys are written as given, so a key
        // holding '=' or '&' ("\\?=q=:q") is ambiguous in any query string (docs/reliability.md).
        if (!compiled.match(path).has_value()) {
            std::fprintf(stderr, "template '%s' built '%s' from %s\n",
                         qUtf8Printable(compiled.pattern()), qUtf8Printable(path),
                         QDebug::toString(params).toUtf8().constData());
            FuzzSupport::fail("compiled.match(compiled.build(params)).has_value()");
        }
    }
    (void)compiled.extraParameters(params);
    (void)compiled.requiredParameterNames();
    (void)compiled.match(text(input, 128));
    const PathTemplate list = compiled.listTemplate();
    if (list.isValid())
        (void)list.build(params, &error);
    return 0;
}
