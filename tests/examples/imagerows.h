// Reading a screenshot the way a person would glance at it: how many lines of text does a
// region show? Used to assert that a demo's PNG shows list rows, not just that it exists.
#pragma once

#include <QtCore/QRect>
#include <QtGui/QImage>

namespace ImageRows {

//! A pixel row has ink when it holds at least minInk dark pixels (text on a light theme).
inline bool hasInk(const QImage &image, int y, int x0, int x1, int minInk = 2)
{
    int ink = 0;
    for (int x = x0; x < x1; ++x) {
        if (qGray(image.pixel(x, y)) < 110 && ++ink >= minInk)
            return true;
    }
    return false;
}

//! Number of text lines in \a region: runs of inked pixel rows 4..40 px high, separated by at
//! least one blank pixel row. Runs taller than that (images, dark blocks) do not count.
inline int textLines(const QImage &image, QRect region)
{
    region = region.intersected(image.rect());
    int lines = 0;
    int run = 0;
    for (int y = region.top(); y <= region.bottom() + 1; ++y) {
        if (y <= region.bottom() && hasInk(image, y, region.left(), region.right() + 1)) {
            ++run;
            continue;
        }
        if (run >= 4 && run <= 40)
            ++lines;
        run = 0;
    }
    return lines;
}

} // namespace ImageRows
