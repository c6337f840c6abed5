// dataclient-bench [--data DIR] [--scale DIR] [--only SUBSTRING[,SUBSTRING...]] [--quick]
//                  [--keep-memory]
// Prints one JSON object per line for each scenario (docs/performance.md).
#include "benchmark.h"

#include <QtCore/QCommandLineParser>
#include <QtCore/QCoreApplication>
#include <QtCore/QDir>

#include <climits>

#include <malloc.h>

using namespace Qt::StringLiterals;

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.setApplicationDescription(u"DataClient benchmarks (docs/performance.md)"_s);
    parser.addHelpOption();
    const QCommandLineOption data(
        u"data"_s, u"Directory of the benchmark data files."_s, u"DIR"_s,
        QDir(QStringLiteral(DATACLIENT_SOURCE_DIR "/../shared/bench-data")).absolutePath());
    const QCommandLineOption only(
        u"only"_s, u"Run scenarios whose name contains one of these (comma-separated)."_s,
        u"SUBSTRING"_s);
    const QCommandLineOption scale(
        u"scale"_s,
        u"Directory of todos-100k.json and todos-1m.json (gen-scale.mjs), and optionally "
        "todos-200k, -500k, -2m, -4m.json (gen-scale-more.mjs): runs the s.* scenarios at those "
        "sizes too."_s,
        u"DIR"_s);
    const QCommandLineOption quick(u"quick"_s, u"Fewer and shorter rounds (a smoke run)."_s);
    const QCommandLineOption keepMemory(
        u"keep-memory"_s,
        u"Keep freed memory in the allocator (glibc: no trim, no mmap), so that rounds that "
        "free a large store and make another do not fault fresh pages in again: the library's "
        "own time, without the kernel's."_s);
    parser.addOptions({data, scale, only, quick, keepMemory});
    parser.process(app);
    if (parser.isSet(keepMemory)) {
        mallopt(M_MMAP_MAX, 0);
        mallopt(M_TRIM_THRESHOLD, INT_MAX);
    }

    Bench::Runner::Options options;
    options.dataDir = parser.value(data);
    options.scaleDir = parser.value(scale);
    if (parser.isSet(only))
        options.only = parser.value(only).split(u',', Qt::SkipEmptyParts);
    options.quick = parser.isSet(quick);
    Bench::Runner runner(options);
    Bench::runAll(runner);
    return runner.failures() == 0 ? 0 : 1;
}
