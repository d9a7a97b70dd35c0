//! The exam track (`#/exam-track`): the lessons the certification needs, day by day, with the
//! learner's progress, the lessons beyond the exam, a mixed review across topics and the mock
//! exam (exam-style questions only: `streamlab_model::study::track::mock_pool`).

use leptos::prelude::*;

use super::Study;
use crate::route::Route;
use streamlab_model::study::track::track;
use crate::Lab;

/// The exam track page.
#[component]
pub fn ExamTrackPage() -> impl IntoView {
    let lab = expect_context::<Lab>();
    let study = expect_context::<Study>();
    let t = StoredValue::new(track().ok());
    let title = move |id: &str| study.lessons.with_value(|ls| ls.iter().find(|l| l.id == id).map(|l| (l.number, l.text(lab.lang.get()).title.clone())));
    let lesson_link = move |id: String| {
        let (n, name) = title(&id).unwrap_or((0, id.clone()));
        view! { <li><a href=Route::Lesson(id.clone()).to_hash() data-testid="track-lesson" data-lesson=id.clone()>{format!("{n}. {name}")}</a></li> }
    };
    view! {
        <main class="study-page exam-track" data-testid="exam-track-page">
            <h2>{move || lab.t("track.title")}</h2>
            <p class="help">{move || lab.t("track.help")}</p>
            {move || t.with_value(|t| t.as_ref().map(|t| {
                let lang = lab.lang.get();
                let days = t.days.iter().map(|d| {
                    let lessons = d.lessons.clone();
                    view! {
                        <section class="panel track-day" data-testid="track-day">
                            <h3>{d.title(lang).to_string()}</h3>
                            <ul class="track-lessons">{lessons.into_iter().map(lesson_link).collect_view()}</ul>
                        </section>
                    }
                }).collect_view();
                let beyond = t.beyond.clone();
                view! {
                    {days}
                    <section class="panel track-beyond" data-testid="track-beyond">
                        <h3>{lab.t("track.beyond")}</h3>
                        <ul>{beyond.into_iter().map(lesson_link).collect_view()}</ul>
                    </section>
                }
            }))}
            <div class="buttons">
                <a class="button" href=Route::Exam.to_hash() data-testid="track-review">{move || lab.t("track.review")}</a>
                <a class="button primary" href=Route::Exam.to_hash() data-testid="track-mock">{move || lab.t("track.mock")}</a>
                <a class="button" href=Route::CheatSheet.to_hash() data-testid="track-cheatsheet">{move || lab.t("nav.cheatsheet")}</a>
            </div>
        </main>
    }
}
