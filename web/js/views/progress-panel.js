// The learner's progress in this lesson, shown under its title: quiz questions answered right,
// exercises solved, whether the lesson is complete, and a "Reset progress" control that asks
// once more before it forgets this lesson's answers (other lessons are never touched).
// mount(element, deps) -> { update(state), destroy() }
//   deps.t  deps.onReset()
// state: { summary: {quizAnswered, quizCorrect, quizFirstTry, quizTotal, exercisesSolved, exercisesTotal, complete} }
import { h } from '../ui/dom.js';

export function mount(element, deps) {
  const t = deps.t;
  const text = h('p', { class: 'dpl-progress-text', 'aria-live': 'polite' });
  const reset = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'reset-progress' } }, [t('progress.reset')]);
  const confirmYes = h('button', { type: 'button', class: 'dpl-btn dpl-btn-danger', dataset: { action: 'reset-confirm' } }, [t('progress.confirm')]);
  const confirmNo = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'reset-cancel' } }, [t('progress.cancel')]);
  const confirmBox = h('div', { class: 'dpl-progress-confirm', role: 'group', 'aria-label': t('progress.confirmLabel'), hidden: true }, [
    h('span', { text: t('progress.confirmQuestion') }), confirmYes, confirmNo,
  ]);
  const root = h('section', { class: 'dpl dpl-progress', 'aria-label': t('progress.label') }, [
    h('div', { class: 'dpl-progress-row' }, [text, reset]), confirmBox,
  ]);
  element.append(root);

  reset.addEventListener('click', () => {
    confirmBox.hidden = false;
    reset.hidden = true;
    confirmNo.focus();
  });
  confirmNo.addEventListener('click', () => {
    confirmBox.hidden = true;
    reset.hidden = false;
    reset.focus();
  });
  confirmYes.addEventListener('click', () => {
    confirmBox.hidden = true;
    reset.hidden = false;
    deps.onReset?.();
    reset.focus();
  });

  return {
    update({ summary }) {
      if (!summary) return;
      const parts = [
        t('progress.quiz', { right: summary.quizCorrect, first: summary.quizFirstTry ?? summary.quizCorrect, answered: summary.quizAnswered, total: summary.quizTotal }),
        t('progress.exercises', { solved: summary.exercisesSolved, total: summary.exercisesTotal }),
      ];
      root.dataset.complete = summary.complete ? '1' : '0';
      text.replaceChildren(h('span', { class: 'dpl-progress-label', text: t('progress.label') }), ' ', parts.join(' · '),
        summary.complete ? h('strong', { class: 'dpl-progress-done', text: ` · ✓ ${t('progress.complete')}` }) : '');
    },
    destroy() {
      root.remove();
    },
  };
}
