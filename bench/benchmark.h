// The dataclient-bench harness: a registry of scenario groups, timing with warm-up and rounds
// (median, min, max per op), heap measurement, and one JSON line per scenario.
//
// Adding scenarios is a one-file job: create bench/scenarios_<group>.cpp containing
//     DATACLIENT_BENCH_SCENARIOS(myGroup) { bench.time("f.controller.x", setup, op); ... }
// CMakeLists.txt picks up every scenarios_*.cpp (and links the Controller when
// scenarios_controller*.cpp exists).
#pragma once

#include <QtCore/QByteArray>
#include <QtCore/QJsonObject>
#include <QtCore/QHash>
#include <QtCore/QJsonObject>
#include <QtCore/QStringList>
#include <QtCore/QString>

#include <functional>

namespace Bench {

class Runner
{
public:
    struct Options
    {
        QString dataDir;
        QString scaleDir; // --scale: todos-100k.json, todos-1m.json and maybe more sizes
        QStringList only; // substrings; empty = all
        bool quick = false;
    };
    explicit Runner(const Options &options) : m_options(options) { }

    //! True when the scenario \a name was asked for (--only).
    bool wanted(const QString &name) const;
    //! The bytes of a file of the data directory (read once).
    QByteArray file(const QString &name);
    const QString &dataDir() const { return m_options.dataDir; }
    //! True when an --only part starts with \a prefix (a group run only on request).
    bool askedFor(const QString &prefix) const;
    const QString &scaleDir() const { return m_options.scaleDir; }
    //! The bytes of a file of the --scale directory (not kept: up to 250 MB).
    QByteArray scaleFile(const QString &name) const;

    //! Times \a op: warm-up, then rounds; \a setup runs before each op, untimed (may be empty).
    void time(const QString &name, const std::function<void()> &setup,
              const std::function<void()> &op);
    //! Reports a memory figure in bytes.
    void memory(const QString &name, qint64 bytes);
    //! Prints a line of figures of its own (\a line has "name"), if that scenario was asked for.
    void report(const QJsonObject &line);
    //! A failed sanity check: printed as {"name":..., "error":...} and counted.
    void fail(const QString &name, const QString &what);
    int failures() const { return m_failures; }

    //! Bytes in use on the heap now (glibc mallinfo2: arena + mmapped blocks).
    static qint64 heapInUse();

private:
    Options m_options;
    QHash<QString, QByteArray> m_files;
    int m_failures = 0;
};

//! Prints \a object as one JSON line (for scenarios that report more than time() does).
void printLine(const QJsonObject &object);

using ScenarioGroup = void (*)(Runner &bench);
bool registerGroup(const char *name, ScenarioGroup group);
void runAll(Runner &runner);

} // namespace Bench

#define DATACLIENT_BENCH_SCENARIOS(group)                                                          \
    static void group(Bench::Runner &bench);                                                       \
    [[maybe_unused]] static const bool group##Registered = Bench::registerGroup(#group, &group);   \
    static void group(Bench::Runner &bench)
