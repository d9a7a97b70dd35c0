//! The model's test driver reports what failed and the script before it (a driver whose checks
//! cannot fail would make every test that uses it pass).

mod support;
use support::lab_test;

#[test]
fn a_lab_test_runs_script_lines_as_the_lab_does() {
    // Worked by hand. The classic preset (10-minute delay, append) brings 09:02, 09:06, 09:13 in
    // step 0: batch 0 reads them with watermark 0, and the watermark moves to 09:13 - 10 min =
    // 09:03, so a no-data batch 1 runs at 09:03 (Spark's `shouldRunAnotherBatch`). Step 1 brings
    // 09:08 and 09:16: batch 2 at 09:03, then no-data batch 3 at 09:16 - 10 min = 09:06.
    let t = lab_test("classic").run(&["next_step", "next_step"]);
    let batches: Vec<(u64, bool, Option<i64>)> = t.view().batches.iter().map(|b| (b.id, b.no_data, b.watermark_ms)).collect();
    let (w0903, w0906) = (1_772_442_180_000, 1_772_442_360_000); // 2026-03-02T09:03Z and 09:06Z, ms
    t.check("two steps ran two batches and two no-data batches", batches == vec![(0, false, Some(0)), (1, true, Some(w0903)), (2, false, Some(w0903)), (3, true, Some(w0906))]);
}

#[test]
fn a_refused_line_fails_naming_it_and_the_lines_before() {
    let r = std::panic::catch_unwind(|| lab_test("classic").run(&["next_step", "mode: sideways"]).listing());
    let message = *r.expect_err("an unknown output mode fails").downcast::<String>().expect("a formatted message");
    assert!(message.starts_with("line \"mode: sideways\" failed:"), "{message}");
    assert!(message.ends_with("== Script ==\n  next_step\n"), "{message}");
}

#[test]
fn a_check_that_does_not_hold_fails_with_the_script() {
    let t = lab_test("classic").run(&["next_step"]);
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        t.check("no batch ran", t.view().batches.is_empty());
    }));
    let message = *r.expect_err("the check fails").downcast::<String>().expect("a formatted message");
    assert_eq!(message, "no batch ran\n== Script ==\n  next_step\n");
}
