//! Mounts the lab page.
fn main() {
    console_error_panic_hook::set_once();
    // `index.html?bench` is the benchmark page; anything else is the lab.
    let bench = web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|q| q.contains("bench"));
    if bench {
        leptos::mount::mount_to_body(streamlab_web::components::bench::BenchPage);
    } else {
        leptos::mount::mount_to_body(streamlab_web::App);
    }
}
