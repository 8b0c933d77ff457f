// The lesson comparison: the script's formulas as written, and the simulated figures beside them.
#include <catch2/catch.hpp>

#include "pipesim/lesson_report.h"

using namespace pipesim;

TEST_CASE("the lesson's closed forms evaluate as its script does") {
  CHECK(lesson_bubble_1f1b(8, 16) == Approx(14.0 / 46.0));
  CHECK(lesson_bubble_zero_bubble(8, 16) == Approx(7.0 / 62.0));
  CHECK(lesson_bubble_dualpipe(8, 16) == Approx(3.0 / 55.0));  // floor(7/2) / (48 + 7)
  CHECK(lesson_bubble_dualpipev(8, 16) == Approx(1.2 * 3.0 / 55.0));
}

TEST_CASE("the lesson's 1F1B figure is right and its DualPipe figure is not") {
  const LessonReport r = lesson_report();
  const LessonCell& one_f_one_b = r.step1[0];
  CHECK(*one_f_one_b.simulated == Approx(7.0 / 23.0));  // (P-1)/(M+P-1)
  CHECK_FALSE(one_f_one_b.differs);
  // DualPipe P=8 M=16: every rank works 16 x (F+B) = 48 and idles (8/2-1)(3+2-3) = 6: 6/54.
  const LessonCell& dualpipe = r.step1[2];
  CHECK(dualpipe.schedule == "dualpipe");
  CHECK(*dualpipe.simulated == Approx(6.0 / 54.0));
  CHECK(dualpipe.differs);
  // M=4 at P=8 is below DualPipe's minimum of 2P micro-batches: no simulated figure.
  CHECK_FALSE(r.step2[2].simulated.has_value());
  CHECK(r.step2[2].note == "microbatches must be >= 2 * ranks = 16 for dualpipe (got 4)");
}

TEST_CASE("step 4 recovers GPU-hours from simulated fractions") {
  const LessonReport r = lesson_report();
  // P=16 M=128: 1F1B 15/143; DualPipe idles 7 x 2 = 14 against 128 x 3 = 384 busy: 14/398.
  CHECK(*r.step4_1f1b.simulated == Approx(15.0 / 143.0));
  CHECK(*r.step4_dualpipe.simulated == Approx(14.0 / 398.0));
  // recover's definition: C x (u_DualPipe / u_1F1B - 1) = 2.8e6 x ((384/398) / (128/143) - 1).
  CHECK(r.step4_simulated_recovered == Approx(2.8e6 * ((384.0 / 398.0) / (128.0 / 143.0) - 1)));
}
