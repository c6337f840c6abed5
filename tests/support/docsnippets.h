// The check that keeps a docs page's C++ blocks the code that is compiled: every ```cpp block of
// the page must appear, line for line (indentation and blank lines aside), in the given sources.
#pragma once

#include <QtCore/QRegularExpression>
#include <QtCore/QString>
#include <QtCore/QStringList>

namespace DocSnippets {

//! \a text with every line trimmed and the blank ones dropped.
inline QString normalized(const QString &text)
{
    QStringList lines = text.split(u'\n');
    for (QString &line : lines)
        line = line.trimmed();
    lines.removeAll(QString());
    return lines.join(u'\n');
}

//! The ```cpp blocks of \a markdown, normalized.
inline QStringList cppBlocks(const QString &markdown)
{
    static const QRegularExpression block(QStringLiteral("```cpp\\n(.*?)```"),
                                          QRegularExpression::DotMatchesEverythingOption);
    QStringList blocks;
    for (auto it = block.globalMatch(markdown); it.hasNext();)
        blocks.append(normalized(it.next().captured(1)));
    return blocks;
}

} // namespace DocSnippets
