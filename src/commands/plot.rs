//! The SVG plot of a run ([`plot_svg`]): time per pass against input
//! length, log-log, one panel per direction and long input kind
//! ([`PANELS`]), one line per implementation in its [`PALETTE`] colour.
//! What the plot shows and how it looks is changed here.

use std::fmt;

use plotters::prelude::*;

use punycheck::bench::BenchError;
use punycheck::bench::Report;
use punycheck::bench::{Direction, SetKind};

/// The colours of the plot's lines, by implementation index.
pub const PALETTE: [(u8, u8, u8); 8] = [
    (0x1F, 0x77, 0xB4),
    (0xD6, 0x27, 0x28),
    (0x2C, 0xA0, 0x2C),
    (0xFF, 0x7F, 0x0E),
    (0x94, 0x67, 0xBD),
    (0x8C, 0x56, 0x4B),
    (0xE3, 0x77, 0xC2),
    (0x7F, 0x7F, 0x7F),
];

/// The plot's panels, in order: direction and long input kind.
pub const PANELS: [(Direction, SetKind); 4] = [
    (Direction::Encode, SetKind::ManyDistinct),
    (Direction::Encode, SetKind::FewDistinct),
    (Direction::Decode, SetKind::ManyDistinct),
    (Direction::Decode, SetKind::FewDistinct),
];

/// The measured points of one panel: per implementation index, (length,
/// best seconds per pass), by increasing length.
pub fn panel_series(
    report: &Report,
    direction: Direction,
    kind: SetKind,
) -> Vec<(usize, Vec<(f64, f64)>)> {
    report
        .implementations
        .iter()
        .enumerate()
        .filter_map(|(index, name)| {
            let points: Vec<(f64, f64)> = report
                .cases
                .iter()
                .filter(|c| c.set == kind && c.direction == direction)
                .filter_map(|c| Some((c.size? as f64, c.timing(name)?.seconds())))
                .collect();
            (!points.is_empty()).then_some((index, points))
        })
        .collect()
}

fn plot_error(e: impl fmt::Display) -> BenchError {
    BenchError::Plot(e.to_string())
}

/// The plot as SVG: time per pass against input length, log-log, one panel
/// per direction and long input kind, one line (with a mark per size) per
/// implementation in its [`PALETTE`] colour.
pub fn plot_svg(report: &Report) -> Result<String, BenchError> {
    let panels: Vec<Panel> = PANELS
        .into_iter()
        .map(|(direction, kind)| {
            let series = panel_series(report, direction, kind);
            Panel {
                caption: if series.is_empty() {
                    format!("{direction}, {} (nothing measured)", kind.name())
                } else {
                    format!("{direction}, {}", kind.name())
                },
                x_desc: "input length (code points)".into(),
                y_desc: "seconds per pass (best of N)".into(),
                // Every size of the run, measured or not, on every panel.
                x_range: bounds(report.settings.sizes.iter().map(|&n| n as f64), (1e3, 1e6)),
                lines: series
                    .into_iter()
                    .map(|(index, points)| (index, report.implementations[index].clone(), points))
                    .collect(),
            }
        })
        .collect();
    let title = format!(
        "punycheck bench: time per pass against input length ({})",
        report.machine.cpu
    );
    log_log_svg(&title, &panels).map_err(plot_error)
}

/// One line of a panel: its colour index in [`PALETTE`], its label, and
/// its points by increasing x.
pub type Line = (usize, String, Vec<(f64, f64)>);

/// One panel of a log-log plot: its caption, axis names, the x range, and
/// its lines.
pub struct Panel {
    /// Above the panel.
    pub caption: String,
    /// The x axis' name.
    pub x_desc: String,
    /// The y axis' name.
    pub y_desc: String,
    /// The x axis' range.
    pub x_range: (f64, f64),
    /// The lines.
    pub lines: Vec<Line>,
}

/// `panels` as one SVG, two panels a row, log-log, a line with a mark per
/// point for each series in its [`PALETTE`] colour: the plots of `punycheck
/// bench` and `punycheck cost`.
pub fn log_log_svg(title: &str, panels: &[Panel]) -> Result<String, String> {
    let error = |e: &dyn fmt::Display| e.to_string();
    let mut svg = String::new();
    {
        let rows = panels.len().div_ceil(2).max(1);
        let root = SVGBackend::with_string(&mut svg, (1200, 450 * rows as u32)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| error(&e))?;
        let root = root
            .titled(title, ("sans-serif", 20))
            .map_err(|e| error(&e))?;
        for (area, panel) in root.split_evenly((rows, 2)).iter().zip(panels) {
            let ys = panel
                .lines
                .iter()
                .flat_map(|(_, _, p)| p.iter().map(|&(_, y)| y));
            let (x0, x1) = panel.x_range;
            let (y0, y1) = bounds(ys, (1e-6, 1.0));
            let mut chart = ChartBuilder::on(area)
                .caption(&panel.caption, ("sans-serif", 18))
                .margin(12)
                .x_label_area_size(40)
                .y_label_area_size(70)
                .build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())
                .map_err(|e| error(&e))?;
            chart
                .configure_mesh()
                .x_desc(panel.x_desc.as_str())
                .y_desc(panel.y_desc.as_str())
                .x_label_formatter(&|x| format!("{x:.0e}"))
                .y_label_formatter(&|y| format!("{y:.0e}"))
                .draw()
                .map_err(|e| error(&e))?;
            for (index, label, points) in &panel.lines {
                let (r, g, b) = PALETTE[index % PALETTE.len()];
                let color = RGBColor(r, g, b);
                chart
                    .draw_series(LineSeries::new(points.clone(), color.stroke_width(2)))
                    .map_err(|e| error(&e))?
                    .label(label.as_str())
                    .legend(move |(x, y)| {
                        PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2))
                    });
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 3, color.filled())))
                    .map_err(|e| error(&e))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperLeft)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .draw()
                .map_err(|e| error(&e))?;
        }
        root.present().map_err(|e| error(&e))?;
    }
    Ok(svg)
}

/// A log axis range around `values` (a factor of 2 beyond each end), or
/// `fallback` when there are none.
pub fn bounds(values: impl Iterator<Item = f64>, fallback: (f64, f64)) -> (f64, f64) {
    let (low, high) = values
        .filter(|v| v.is_finite() && *v > 0.0)
        .fold((f64::INFINITY, 0.0f64), |(lo, hi), v| {
            (lo.min(v), hi.max(v))
        });
    if low.is_finite() && high > 0.0 {
        (low / 2.0, high * 2.0)
    } else {
        fallback
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;
    use std::sync::OnceLock;

    use punycheck::bench::{self, Builtin, SetKind, Settings, Subject};
    use quick_xml::events::Event;

    use super::*;

    /// One quick run of the built-in implementations (long inputs of 10^3
    /// code points only, a small budget), shared by the tests.
    fn report() -> &'static Report {
        static REPORT: OnceLock<Report> = OnceLock::new();
        REPORT.get_or_init(|| {
            // The built-ins of this build (libidn2 and ICU are left out
            // where the build did not find them).
            static BUILT: OnceLock<Vec<Builtin>> = OnceLock::new();
            let subjects: Vec<&dyn Subject> = BUILT
                .get_or_init(Builtin::available)
                .iter()
                .map(|b| b as &dyn Subject)
                .collect();
            let settings = Settings::quick()
                .with_max_size(1_000)
                .and_then(|s| s.with_seconds_per_case(0.2))
                .expect("valid settings");
            bench::run(&settings, &subjects, &mut |_| {}).expect("every answer is right")
        })
    }

    /// The polylines of an SVG, by stroke colour, after checking that it is
    /// well-formed XML with one `svg` root.
    fn polylines_by_colour(svg: &str) -> HashMap<String, usize> {
        let mut reader = quick_xml::Reader::from_str(svg);
        let mut depth = 0usize;
        let mut roots = Vec::new();
        let mut polylines = HashMap::new();
        loop {
            let event = reader.read_event().expect("well-formed XML");
            let element = match &event {
                Event::Start(e) | Event::Empty(e) => e,
                Event::End(_) => {
                    depth -= 1;
                    continue;
                }
                Event::Eof => break,
                _ => continue,
            };
            if depth == 0 {
                roots.push(String::from_utf8_lossy(element.name().as_ref()).into_owned());
            }
            if matches!(event, Event::Start(_)) {
                depth += 1;
            }
            if element.name().as_ref() == b"polyline" {
                for attribute in element.attributes() {
                    let attribute = attribute.expect("well-formed attribute");
                    if attribute.key.as_ref() == b"stroke" {
                        let colour = String::from_utf8_lossy(&attribute.value).to_uppercase();
                        *polylines.entry(colour).or_insert(0) += 1;
                    }
                }
            }
        }
        assert_eq!(depth, 0, "every element is closed");
        assert_eq!(roots, ["svg"]);
        polylines
    }

    #[test]
    fn the_plot_has_a_line_per_implementation_in_each_panel() {
        let report = report();
        let svg = plot_svg(report).expect("plot");
        let polylines = polylines_by_colour(&svg);
        for (index, name) in report.implementations.iter().enumerate() {
            let (r, g, b) = PALETTE[index];
            let colour = format!("#{r:02X}{g:02X}{b:02X}");
            let panels = PANELS
                .iter()
                .filter(|&&(direction, kind)| {
                    panel_series(report, direction, kind)
                        .iter()
                        .any(|(i, _)| *i == index)
                })
                .count();
            // ICU decodes no many-distinct input (its 2000-byte limit); every
            // other one is measured in all four panels.
            assert_eq!(panels, if name == "icu" { 3 } else { 4 }, "{name}");
            // In each panel, its line and the sample line of its legend entry.
            assert_eq!(
                polylines.get(&colour).copied().unwrap_or(0),
                2 * panels,
                "{name} {colour}"
            );
            assert!(
                svg.contains(&format!(">\n{name}\n</text>")),
                "{name} in a legend"
            );
        }
        for (direction, kind) in PANELS {
            assert!(svg.contains(&format!("{direction}, {}", kind.name())));
        }
        assert!(!svg.contains("nothing measured"));
    }

    #[test]
    fn a_panel_without_measurements_says_so() {
        let mut report = report().clone();
        report
            .cases
            .retain(|c| !c.set.is_long() || c.set == SetKind::FewDistinct);
        let svg = plot_svg(&report).expect("plot");
        polylines_by_colour(&svg);
        assert_eq!(svg.matches("(nothing measured)").count(), 2);
    }
}
