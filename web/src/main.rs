//! Mounts the lab page.
fn main() {
    // A panic shows the recovery screen (`crash`), never a dead page.
    streamlab_web::crash::install_panic_hook();
    // `index.html?bench` is the benchmark page; anything else is the lab.
    let bench = web_sys::window().and_then(|w| w.location().search().ok()).is_some_and(|q| q.contains("bench"));
    if bench {
        leptos::mount::mount_to_body(streamlab_web::components::bench::BenchPage);
    } else {
        leptos::mount::mount_to_body(streamlab_web::App);
    }
    // The load is over once the first effects (the replayed session's view) have run.
    gloo_timers::callback::Timeout::new(0, streamlab_web::crash::finish_boot).forget();
}
