//! The loss curve: training and validation loss per epoch, as an SVG
//! picture drawn with plotters (SVG backend only, so no system fonts or
//! libraries are needed: text is written as SVG `<text>` for the viewer to
//! render).

use crate::trainer::EpochStats;
use crate::TrainError;
use plotters::prelude::*;
use std::path::Path;

/// Width and height of the picture in pixels.
pub const PLOT_SIZE: (u32, u32) = (800, 500);

/// The SVG text of the loss curve of `history` (an empty history gives an
/// empty chart).
pub fn loss_curve_svg(history: &[EpochStats]) -> Result<String, TrainError> {
    curve_svg(
        "NNUE training: loss per epoch",
        "loss (mean squared error)",
        history.iter().map(|e| (e.epoch, e.train_loss, e.val_loss)),
    )
}

/// Writes the loss curve of `history` to `path` (atomically).
pub fn write_loss_curve(path: &Path, history: &[EpochStats]) -> Result<(), TrainError> {
    let svg = loss_curve_svg(history)?;
    crate::write_atomic(path, svg.as_bytes())
}

/// The SVG text of a chart titled `caption` of the training and the
/// validation loss of `epochs`, given as (epoch, training loss, validation
/// loss if any) (losses that are not finite are left out), the y axis
/// named `y_desc`: what both trainers' statistics plot.
pub(crate) fn curve_svg(
    caption: &str,
    y_desc: &str,
    epochs: impl Iterator<Item = (u32, f64, Option<f64>)>,
) -> Result<String, TrainError> {
    let (mut train, mut val) = (Vec::new(), Vec::new());
    for (epoch, train_loss, val_loss) in epochs {
        train.push((f64::from(epoch), train_loss));
        val.extend(val_loss.map(|v| (f64::from(epoch), v)));
    }
    let mut svg = String::new();
    draw(&mut svg, caption, y_desc, &train, &val).map_err(|e| TrainError::Plot(e.to_string()))?;
    Ok(svg)
}

fn draw(
    svg: &mut String,
    caption: &str,
    y_desc: &str,
    train: &[(f64, f64)],
    val: &[(f64, f64)],
) -> Result<(), Box<dyn std::error::Error>> {
    let finite = |points: &[(f64, f64)]| -> Vec<(f64, f64)> {
        points.iter().copied().filter(|p| p.1.is_finite()).collect()
    };
    // The x axis spans every epoch, even one whose loss is left out.
    let last = train.iter().chain(val).map(|p| p.0).fold(1.0, f64::max);
    let (train, val) = (finite(train), finite(val));
    let (mut lo, mut hi) = train
        .iter()
        .chain(&val)
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &(_, y)| {
            (lo.min(y), hi.max(y))
        });
    if !lo.is_finite() {
        (lo, hi) = (0.0, 1.0);
    }
    let pad = ((hi - lo) * 0.08).max(hi.abs() * 0.02).max(1e-6);

    let root = SVGBackend::with_string(svg, PLOT_SIZE).into_drawing_area();
    root.fill(&WHITE)?;
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 22))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d(0.5..last + 0.5, (lo - pad).max(0.0)..hi + pad)?;
    chart
        .configure_mesh()
        .x_desc("epoch")
        .y_desc(y_desc)
        .max_light_lines(4)
        .x_labels((last as usize).clamp(2, 12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.4}"))
        .draw()?;
    for (points, color, name) in [(&train, BLUE, "train"), (&val, RED, "validation")] {
        if points.is_empty() {
            continue;
        }
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))?
            .label(name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
            });
        chart.draw_series(
            points
                .iter()
                .map(move |&p| Circle::new(p, 3, color.filled())),
        )?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()?;
    root.present()?;
    Ok(())
}
