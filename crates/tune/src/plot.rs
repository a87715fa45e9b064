//! Line charts as SVG files, for the tuners' trajectories (training error
//! per epoch, SPSA parameters per iteration).
//!
//! Drawn by `plotters` with its SVG backend only: no system fonts and no C
//! libraries are needed (the text is written as SVG `<text>` elements that
//! the viewer lays out).
//!
//! ```
//! use fianchetto_tune::plot::{svg_line_chart, Series};
//!
//! let error = Series::new("error", vec![(1.0, 0.09), (2.0, 0.085), (3.0, 0.083)]);
//! let svg = svg_line_chart("Texel", "epoch", "mean squared error", &[error])?;
//! assert!(svg.starts_with("<svg") && svg.contains("<polyline"));
//! # Ok::<(), fianchetto_tune::plot::PlotError>(())
//! ```

use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// A chart could not be drawn or written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The drawing library refused (a message from plotters).
    #[error("drawing the chart failed: {0}")]
    Draw(String),
    /// Writing the file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        source: std::io::Error,
    },
}

/// One named line of a chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// The legend.
    pub name: String,
    /// `(x, y)` points, in drawing order; non-finite points are skipped.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series named `name`.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.into(),
            points,
        }
    }
}

/// The line colours, in series order (cycled).
const PALETTE: [RGBColor; 8] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(255, 127, 14),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
];

/// The range covering `values`, padded by 5% (and widened when flat).
fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (mut lo, mut hi) = (f64::INFINITY, f64::NEG_INFINITY);
    for v in values.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    if hi - lo < 1e-12 * (1.0 + lo.abs()) {
        let pad = (lo.abs() * 0.01).max(1e-6);
        return (lo - pad, hi + pad);
    }
    let pad = (hi - lo) * 0.05;
    (lo - pad, hi + pad)
}

fn draw_err<E: std::fmt::Debug>(e: E) -> PlotError {
    PlotError::Draw(format!("{e:?}"))
}

/// Draws `series` as lines on one chart and returns the SVG text.
pub fn svg_line_chart(
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<String, PlotError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (900, 560)).into_drawing_area();
        root.fill(&WHITE).map_err(draw_err)?;
        let finite = |s: &Series| {
            s.points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect::<Vec<_>>()
        };
        let (x0, x1) = range(series.iter().flat_map(|s| s.points.iter().map(|p| p.0)));
        let (y0, y1) = range(series.iter().flat_map(|s| s.points.iter().map(|p| p.1)));
        let mut chart = ChartBuilder::on(&root)
            .caption(title, ("sans-serif", 22))
            .margin(16)
            .x_label_area_size(44)
            .y_label_area_size(80)
            .build_cartesian_2d(x0..x1, y0..y1)
            .map_err(draw_err)?;
        chart
            .configure_mesh()
            .x_desc(x_label)
            .y_desc(y_label)
            .draw()
            .map_err(draw_err)?;
        for (i, s) in series.iter().enumerate() {
            let color = PALETTE[i % PALETTE.len()];
            chart
                .draw_series(LineSeries::new(finite(s), color.stroke_width(2)))
                .map_err(draw_err)?
                .label(s.name.as_str())
                .legend(move |(x, y)| {
                    PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                });
        }
        if series.len() > 1 || series.iter().any(|s| !s.name.is_empty()) {
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.8))
                .border_style(BLACK)
                .draw()
                .map_err(draw_err)?;
        }
        root.present().map_err(draw_err)?;
    }
    Ok(svg)
}

/// [`svg_line_chart`], written to `path`.
pub fn write_svg_line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    series: &[Series],
) -> Result<(), PlotError> {
    let svg = svg_line_chart(title, x_label, y_label, series)?;
    std::fs::write(path, svg).map_err(|source| PlotError::Io {
        path: path.to_path_buf(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_lines_labels_and_degenerate_input() {
        let a = Series::new(
            "a",
            (0..50).map(|i| (i as f64, (i as f64).sqrt())).collect(),
        );
        let b = Series::new("b", vec![(0.0, 1.0), (49.0, f64::NAN), (10.0, 2.0)]);
        let svg = svg_line_chart("Title", "x axis", "y axis", &[a, b]).expect("draws");
        assert!(svg.contains("<polyline"));
        for text in ["Title", "x axis", "y axis", "a", "b"] {
            // plotters writes each text on a line of its own.
            assert!(
                svg.contains(&format!(">\n{text}\n</text>")),
                "{text} missing"
            );
        }
        // One point, or none at all, still draws an (empty) chart.
        assert!(svg_line_chart("t", "x", "y", &[Series::new("one", vec![(1.0, 1.0)])]).is_ok());
        assert!(svg_line_chart("t", "x", "y", &[]).is_ok());
    }
}
