//! Analysis for people: positions and games searched (`analyze`), what was found as plain data (`review`), the
//! HTML review page written from it (`page`) and the SVG boards both draw (`diagram`).

pub mod analyze;
pub mod diagram;
pub mod page;
pub mod review;
