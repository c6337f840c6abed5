// Every code snippet of the docs is real code: each ```cpp / ```qml / ```cmake block of a page
// must appear (line by line, ignoring indentation and blank lines) in one of the source files the
// page names in a `<!-- snippets: path ... -->` comment. Those files are compiled and run by
// other tests (examples, tests/...), so a snippet that drifts from the API fails the suite.
// A block may leave parts out with a line `...`, `// ...` or `# ...`: each part is matched alone.
#include <QtCore/QDir>
#include <QtCore/QFile>
#include <QtCore/QRegularExpression>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

const QString sourceDir = QStringLiteral(DATACLIENT_SOURCE_DIR);
const QStringList checkedLanguages {u"cpp"_s, u"c++"_s, u"qml"_s, u"cmake"_s};
// Pages whose snippets must be verified (they must carry a snippets comment). Other pages are
// checked when they carry one, and listed as a warning when they have code but no comment.
const QStringList requiredPages {u"docs/getting-started.md"_s, u"docs/examples.md"_s};

struct Snippet
{
    int line = 0; // 1-based line of the opening fence
    QString language;
    QList<QStringList> parts; // normalized lines, split at elision lines
};

QStringList normalizedLines(const QString &text)
{
    QStringList lines;
    for (const QString &line : text.split(u'\n')) {
        const QString trimmed = line.trimmed();
        if (!trimmed.isEmpty())
            lines.append(trimmed);
    }
    return lines;
}

bool isElision(const QString &trimmed)
{
    return trimmed == "..."_L1 || trimmed == "// ..."_L1 || trimmed == "# ..."_L1;
}

QList<Snippet> snippets(const QString &markdown)
{
    QList<Snippet> result;
    const QStringList lines = markdown.split(u'\n');
    for (int i = 0; i < lines.size(); ++i) {
        const QString fence = lines.at(i).trimmed();
        if (!fence.startsWith("```"_L1) || fence.size() == 3)
            continue;
        Snippet snippet;
        snippet.line = i + 1;
        snippet.language = fence.mid(3).trimmed().toLower();
        QStringList part;
        for (++i; i < lines.size() && lines.at(i).trimmed() != "```"_L1; ++i) {
            const QString trimmed = lines.at(i).trimmed();
            if (isElision(trimmed)) {
                if (!part.isEmpty())
                    snippet.parts.append(part);
                part.clear();
            } else if (!trimmed.isEmpty()) {
                part.append(trimmed);
            }
        }
        if (!part.isEmpty())
            snippet.parts.append(part);
        if (checkedLanguages.contains(snippet.language))
            result.append(snippet);
    }
    return result;
}

bool containsRun(const QStringList &haystack, const QStringList &needle)
{
    for (qsizetype start = 0; start + needle.size() <= haystack.size(); ++start) {
        if (std::equal(needle.cbegin(), needle.cend(), haystack.cbegin() + start))
            return true;
    }
    return false;
}

QString readText(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

} // namespace

class tst_DocSnippets : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pages_data()
    {
        QTest::addColumn<QString>("page");
        QStringList pages {u"README.md"_s};
        // The pages of docs/ and of its folders of one topic (docs/servers/).
        for (const QString &folder : {u"docs"_s, u"docs/servers"_s}) {
            const QStringList docs
                = QDir(sourceDir + u'/' + folder).entryList({u"*.md"_s}, QDir::Files);
            for (const QString &doc : docs)
                pages.append(folder + u'/' + doc);
        }
        for (const QString &required : requiredPages) {
            if (!pages.contains(required))
                pages.append(required); // a missing required page fails
        }
        for (const QString &page : std::as_const(pages))
            QTest::newRow(qPrintable(page)) << page;
    }

    void pages()
    {
        QFETCH(QString, page);
        const QString markdown = readText(sourceDir + u'/' + page);
        QVERIFY2(!markdown.isEmpty(), qPrintable(page + u" is missing or empty"_s));
        const QList<Snippet> found = snippets(markdown);

        static const QRegularExpression marker(u"<!--\\s*snippets:([^>]*)-->"_s);
        QStringList sources;
        // Words that name files (other words, e.g. "behaviour:", are commentary).
        static const QRegularExpression pathWord(
            u"^[\\w.+-]+(/[\\w.+-]+)*\\.(cpp|h|qml|txt|cmake)$"_s);
        for (auto it = marker.globalMatch(markdown); it.hasNext();) {
            const QStringList words = it.next().captured(1).split(u' ', Qt::SkipEmptyParts);
            for (QString word : words) {
                while (!word.isEmpty() && QStringLiteral(";,.)").contains(word.back()))
                    word.chop(1);
                if (pathWord.match(word).hasMatch())
                    sources.append(word);
            }
        }
        if (sources.isEmpty()) {
            QVERIFY2(!requiredPages.contains(page),
                     qPrintable(page + u" needs a <!-- snippets: ... --> comment"_s));
            // Every page that shows code must name the sources that compile or run it.
            QVERIFY2(found.isEmpty(),
                     qPrintable(u"%1: %2 code snippets not verified: add a <!-- snippets: ... --> "
                                "comment naming the files that compile or run them"_s.arg(page)
                                    .arg(found.size())));
            return;
        }

        QList<QPair<QString, QStringList>> sourceLines;
        for (const QString &source : std::as_const(sources)) {
            const QString text = readText(sourceDir + u'/' + source);
            QVERIFY2(!text.isEmpty(),
                     qPrintable(u"%1 names %2, which is missing or empty"_s.arg(page, source)));
            sourceLines.append({source, normalizedLines(text)});
        }
        QVERIFY2(!found.isEmpty(), qPrintable(page + u" names sources but has no snippets"_s));
        for (const Snippet &snippet : found) {
            for (const QStringList &part : snippet.parts) {
                const bool matched = std::any_of(
                    sourceLines.cbegin(), sourceLines.cend(),
                    [&](const auto &source) { return containsRun(source.second, part); });
                QVERIFY2(matched,
                         qPrintable(u"%1:%2: this ```%3 snippet is not in %4:\n    %5"_s.arg(
                             page, QString::number(snippet.line), snippet.language,
                             sources.join(u", "_s), part.join(u"\n    "_s))));
            }
        }
    }
};

QTEST_GUILESS_MAIN(tst_DocSnippets)
#include "tst_docsnippets.moc"
