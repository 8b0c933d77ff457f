// One stage of the lesson's quiz (lessons/quiz.json, the course's schema): the pre question before
// the lesson, the three checks after the concept section, the two post questions at the end.
// Each question is a native radio group (arrow keys move between options) with a Check button
// (Enter on an option checks too). A wrong answer is marked ✗ and the learner tries again (the
// options stay open, the wrong ones stay marked); "Show the answer" reveals it without counting
// as right. A right answer locks the question and shows the explanation. Progress keeps the
// first try apart (lib/progress.js), so retrying teaches without hiding the first-try score.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t  deps.stage ('pre'|'check'|'post')  deps.questions [{qid, question, options, correct, explanation}]
//   deps.onAnswer(qid, picked, correct)
// state: { answers: {qid: {picked, correct, first?, wrong?}} }   what the learner answered before (progress)
import { h, uniqueId } from '../ui/dom.js';

export function mount(element, deps) {
  const { t, stage, questions } = deps;
  const prefix = uniqueId('dpl-quiz');
  const headingId = `${prefix}-h`;
  const score = h('p', { class: 'dpl-quiz-score', 'aria-live': 'polite' });
  const items = questions.map((q, index) => {
    const name = `${prefix}-${q.qid}`;
    const radios = q.options.map((_, i) => h('input', { type: 'radio', name, value: String(i) }));
    const marks = q.options.map(() => h('span', { class: 'dpl-quiz-mark', 'aria-hidden': 'true' }));
    const options = q.options.map((option, i) => h('label', { class: 'dpl-quiz-option', dataset: { index: i } }, [
      radios[i], marks[i], h('span', { class: 'dpl-quiz-text', text: option }),
    ]));
    const button = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'quiz-check' } }, [t('quiz.check')]);
    const revealButton = h('button', { type: 'button', class: 'dpl-btn dpl-btn-quiet', dataset: { action: 'quiz-reveal' }, hidden: true }, [t('quiz.reveal')]);
    const message = h('p', { class: 'dpl-field-msg', 'aria-live': 'polite' });
    const feedback = h('div', { class: 'dpl-quiz-feedback', 'aria-live': 'polite' });
    const fieldset = h('fieldset', { class: 'dpl-quiz-q', id: `quiz-${q.qid}`, dataset: { qid: q.qid } }, [
      h('legend', { text: `${index + 1}. ${q.question}` }),
      h('div', { class: 'dpl-quiz-options' }, options),
      h('div', { class: 'dpl-quiz-actions' }, [button, revealButton, message]),
      feedback,
    ]);
    return { q, radios, marks, options, button, reveal: revealButton, message, feedback, fieldset, wrong: [], firstRight: false };
  });
  const root = h('section', { class: 'dpl dpl-quiz', dataset: { stage }, 'aria-labelledby': headingId }, [
    h('h2', { id: headingId, class: 'dpl-quiz-title', text: t(`quiz.title.${stage}`) }),
    h('p', { class: 'dpl-quiz-intro', text: t(`quiz.intro.${stage}`, { n: questions.length }) }),
    ...items.map((item) => item.fieldset),
    score,
  ]);
  element.append(root);

  /** Marks the options: the right one once known, and every wrong pick so far. */
  function mark(item, { wrong, revealed }) {
    item.options.forEach((o, i) => {
      const state = revealed && i === item.q.correct ? 'correct' : wrong.includes(i) ? 'wrong' : '';
      if (state) o.dataset.state = state; else delete o.dataset.state;
      item.marks[i].textContent = state === 'correct' ? '✓' : state === 'wrong' ? '✗' : '';
    });
  }

  /** A right answer: locked, explained. */
  function showCorrect(item, picked, wrong) {
    item.fieldset.dataset.answered = 'correct';
    item.radios.forEach((r, i) => { r.checked = i === picked; r.disabled = true; });
    item.button.hidden = true;
    item.reveal.hidden = true;
    item.message.textContent = '';
    mark(item, { wrong, revealed: true });
    item.feedback.replaceChildren(
      h('p', { class: 'is-correct' }, [h('strong', { text: t('quiz.correct') })]),
      h('p', { class: 'dpl-quiz-explanation', text: item.q.explanation }),
    );
    updateScore();
  }

  /** A wrong answer: marked, and the question stays open for another try. */
  function showWrong(item, wrong) {
    item.fieldset.dataset.answered = 'wrong';
    item.radios.forEach((r, i) => { r.checked = false; r.disabled = false; r.setAttribute('aria-invalid', String(wrong.includes(i))); });
    item.button.hidden = false;
    item.reveal.hidden = false;
    item.message.textContent = '';
    mark(item, { wrong, revealed: false });
    item.feedback.replaceChildren(h('p', { class: 'is-wrong' }, [h('strong', { text: t('quiz.tryAgain') })]));
    updateScore();
  }

  /** "Show the answer": the right option and the explanation; the question stays unanswered-right. */
  function reveal(item) {
    mark(item, { wrong: item.wrong, revealed: true });
    item.reveal.hidden = true;
    item.feedback.replaceChildren(
      h('p', { class: 'is-wrong' }, [h('strong', { text: t('quiz.revealed', { answer: item.q.options[item.q.correct] }) })]),
      h('p', { class: 'dpl-quiz-explanation', text: item.q.explanation }),
    );
    item.radios[item.q.correct].focus();
  }

  function reset(item) {
    delete item.fieldset.dataset.answered;
    item.wrong = [];
    item.radios.forEach((r) => { r.checked = false; r.disabled = false; r.removeAttribute('aria-invalid'); });
    item.button.hidden = false;
    item.reveal.hidden = true;
    item.options.forEach((o) => { delete o.dataset.state; });
    item.marks.forEach((m) => { m.textContent = ''; });
    item.feedback.replaceChildren();
    item.message.textContent = '';
  }

  function updateScore() {
    const right = items.filter((i) => i.fieldset.dataset.answered === 'correct').length;
    const tried = items.filter((i) => i.fieldset.dataset.answered).length;
    if (tried < items.length) { score.textContent = ''; return; }
    score.textContent = t('quiz.score', { right, total: items.length, first: items.filter((i) => i.firstRight).length });
  }

  function answer(item) {
    if (item.fieldset.dataset.answered === 'correct') return;
    const picked = item.radios.findIndex((r) => r.checked);
    if (picked < 0) {
      item.message.textContent = t('quiz.pickFirst');
      return;
    }
    const correct = picked === item.q.correct;
    if (!item.fieldset.dataset.answered) item.firstRight = correct;
    if (correct) showCorrect(item, picked, item.wrong);
    else {
      if (!item.wrong.includes(picked)) item.wrong.push(picked);
      showWrong(item, item.wrong);
      item.radios.find((r, i) => !item.wrong.includes(i))?.focus();
    }
    deps.onAnswer?.(item.q.qid, picked, correct);
  }

  for (const item of items) {
    item.button.addEventListener('click', () => answer(item));
    item.reveal.addEventListener('click', () => reveal(item));
    item.fieldset.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target.type === 'radio') {
        event.preventDefault();
        answer(item);
      }
    });
    item.fieldset.addEventListener('change', () => { item.message.textContent = ''; });
  }

  return {
    update(state) {
      const answers = state?.answers || {};
      const inRange = (item, i) => Number.isInteger(i) && i >= 0 && i < item.q.options.length;
      for (const item of items) {
        const saved = answers[item.q.qid];
        if (!saved || !inRange(item, saved.picked)) {
          if (item.fieldset.dataset.answered) reset(item);
          continue;
        }
        item.wrong = (Array.isArray(saved.wrong) ? saved.wrong : saved.correct ? [] : [saved.picked]).filter((i) => inRange(item, i) && i !== item.q.correct);
        item.firstRight = saved.first ? saved.first.correct === true : saved.correct === true;
        const shown = item.fieldset.dataset.answered;
        if (saved.correct && (shown !== 'correct' || !item.radios[saved.picked].checked)) showCorrect(item, saved.picked, item.wrong);
        else if (!saved.correct && shown !== 'wrong') showWrong(item, item.wrong);
      }
      updateScore();
    },
    destroy() {
      root.remove();
    },
  };
}
