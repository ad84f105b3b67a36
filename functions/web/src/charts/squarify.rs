//! The squarified treemap layout the cluster treemap draws its tiles with.

use super::Rect;

/// Lays `areas` out in `bounds` as tiles close to square, with the squarified treemap algorithm
/// (Bruls, Huizing and van Wijk, 2000): tiles are added to a row along the shorter side of the
/// space left while that makes the row's worst aspect ratio better, then the row is laid down
/// and the next starts in what remains.
///
/// `areas` must be positive, largest first, and sum to the area of `bounds`; the tiles come back
/// in the same order.
pub(super) fn squarify(areas: &[f64], bounds: Rect) -> Vec<Rect> {
    let mut tiles = Vec::with_capacity(areas.len());
    let mut remaining = bounds;
    let mut start = 0;
    while start < areas.len() {
        let side = remaining.width.min(remaining.height);
        let mut end = start + 1;
        while end < areas.len()
            && worst_aspect_ratio(&areas[start..=end], side)
                <= worst_aspect_ratio(&areas[start..end], side)
        {
            end += 1;
        }
        remaining = lay_down_row(&areas[start..end], remaining, &mut tiles);
        start = end;
    }
    tiles
}

/// The aspect ratio (longer over shorter side, 1 for a square) of the least square tile in a row
/// laid along a side of length `side`.
fn worst_aspect_ratio(row: &[f64], side: f64) -> f64 {
    let sum: f64 = row.iter().sum();
    let largest = row.iter().copied().fold(f64::MIN, f64::max);
    let smallest = row.iter().copied().fold(f64::MAX, f64::min);
    let side_squared = side * side;
    let sum_squared = sum * sum;
    (side_squared * largest / sum_squared).max(sum_squared / (side_squared * smallest))
}

/// Lays the row along the shorter side of `remaining` and returns the space left beside it.
fn lay_down_row(row: &[f64], remaining: Rect, tiles: &mut Vec<Rect>) -> Rect {
    let row_area: f64 = row.iter().sum();
    if remaining.width >= remaining.height {
        // A column on the left, as tall as the space.
        let thickness = row_area / remaining.height;
        let mut y = remaining.y;
        for area in row {
            let height = area / thickness;
            tiles.push(Rect {
                x: remaining.x,
                y,
                width: thickness,
                height,
            });
            y += height;
        }
        Rect {
            x: remaining.x + thickness,
            width: (remaining.width - thickness).max(0.0),
            ..remaining
        }
    } else {
        // A row along the top, as wide as the space.
        let thickness = row_area / remaining.width;
        let mut x = remaining.x;
        for area in row {
            let width = area / thickness;
            tiles.push(Rect {
                x,
                y: remaining.y,
                width,
                height: thickness,
            });
            x += width;
        }
        Rect {
            y: remaining.y + thickness,
            height: (remaining.height - thickness).max(0.0),
            ..remaining
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CHART_HEIGHT, CHART_WIDTH};
    use super::*;
    use crate::charts::test_support::*;

    /// Sizes spread over three orders of magnitude, largest first, scaled to `total_area`.
    fn uneven_areas(count: usize, total_area: f64) -> Vec<f64> {
        let mut seed: u64 = 42;
        let mut sizes: Vec<f64> = (0..count)
            .map(|_| {
                seed = seed
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                10f64.powf((seed >> 33) as f64 / (1u64 << 31) as f64 * 3.0)
            })
            .collect();
        sizes.sort_by(|a, b| b.total_cmp(a));
        let sum: f64 = sizes.iter().sum();
        sizes.iter().map(|size| size / sum * total_area).collect()
    }

    fn assert_tiles_the_bounds(areas: &[f64], tiles: &[Rect], bounds: Rect) {
        assert_eq!(tiles.len(), areas.len());
        let covered: f64 = tiles.iter().map(Rect::area).sum();
        assert!(
            (covered - bounds.area()).abs() <= bounds.area() * 0.01,
            "tiles cover {covered} of {}",
            bounds.area()
        );
        for (tile, area) in tiles.iter().zip(areas) {
            assert!(
                (tile.area() - area).abs() <= area * 1e-6,
                "{tile:?} should be {area}"
            );
            assert!(
                tile.x >= bounds.x - 1e-6 && tile.y >= bounds.y - 1e-6,
                "{tile:?}"
            );
            assert!(tile.right() <= bounds.right() + 1e-6, "{tile:?}");
            assert!(tile.bottom() <= bounds.bottom() + 1e-6, "{tile:?}");
        }
        for (i, a) in tiles.iter().enumerate() {
            for b in &tiles[i + 1..] {
                assert!(overlap(a, b) < 1e-6, "{a:?} overlaps {b:?}");
            }
        }
    }

    #[test]
    fn squarify_tiles_the_area_without_overlap() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: CHART_WIDTH,
            height: CHART_HEIGHT,
        };
        for count in [1, 2, 3, 7, 60] {
            let areas = uneven_areas(count, bounds.area());
            assert_tiles_the_bounds(&areas, &squarify(&areas, bounds), bounds);
        }
        let offset = Rect {
            x: 10.0,
            y: 20.0,
            width: 100.0,
            height: 300.0,
        };
        let areas = uneven_areas(25, offset.area());
        assert_tiles_the_bounds(&areas, &squarify(&areas, offset), offset);
    }

    #[test]
    fn squarify_follows_the_paper_example() {
        // Bruls et al.'s example: 6, 6, 4, 3, 2, 2, 1 in a 6 by 4 rectangle.
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: 6.0,
            height: 4.0,
        };
        let areas = [6.0, 6.0, 4.0, 3.0, 2.0, 2.0, 1.0];
        let tiles = squarify(&areas, bounds);
        assert_tiles_the_bounds(&areas, &tiles, bounds);
        // The two 6s stack in a column 3 wide on the left; the 4 and 3 share the top of the rest.
        assert_eq!(
            tiles[0],
            Rect {
                x: 0.0,
                y: 0.0,
                width: 3.0,
                height: 2.0
            }
        );
        assert_eq!(
            tiles[1],
            Rect {
                x: 0.0,
                y: 2.0,
                width: 3.0,
                height: 2.0
            }
        );
        assert!((tiles[2].y, tiles[3].y) == (0.0, 0.0), "{tiles:?}");
        assert!((tiles[2].height - 7.0 / 3.0).abs() < 1e-9, "{tiles:?}");
    }

    #[test]
    fn squarify_keeps_equal_tiles_near_square() {
        let bounds = Rect {
            x: 0.0,
            y: 0.0,
            width: CHART_WIDTH,
            height: CHART_HEIGHT,
        };
        let areas = vec![bounds.area() / 24.0; 24];
        for tile in squarify(&areas, bounds) {
            let ratio = tile.width.max(tile.height) / tile.width.min(tile.height);
            assert!(ratio < 2.0, "{tile:?}");
        }
    }
}
