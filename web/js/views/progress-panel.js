// The learner's progress in this lesson, shown under its title: quiz questions answered right,
// exercises solved, whether the lesson is complete, and a "Reset progress" control that asks
// once more before it forgets this lesson's answers (other lessons are never touched). When the
// course's shared record cannot be read (lib/progress.js), a short notice says that it is left
// as it is and this lesson's progress is kept apart, names its copy, and offers a fresh record.
// mount(element, deps) -> { update(state), destroy() }
//   deps.t  deps.onReset()  deps.onResetShared() -> boolean (false: nothing was replaced)
// state: { summary: {quizAnswered, quizCorrect, quizFirstTry, quizTotal, exercisesSolved, exercisesTotal, complete},
//          storage?: {unreadable, copy} (lib/progress.js status()) }
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
  const noticeText = h('p', {});
  const noticeStatus = h('p', { 'aria-live': 'polite' });
  const freshRecord = h('button', { type: 'button', class: 'dpl-btn', dataset: { action: 'reset-shared' } }, [t('progress.resetShared')]);
  const notice = h('div', { class: 'dpl-notice dpl-progress-notice', role: 'status', hidden: true }, [noticeText, freshRecord, noticeStatus]);
  const root = h('section', { class: 'dpl dpl-progress', 'aria-label': t('progress.label') }, [
    h('div', { class: 'dpl-progress-row' }, [text, reset]), confirmBox, notice,
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

  freshRecord.addEventListener('click', () => {
    noticeStatus.textContent = deps.onResetShared?.() === false ? t('progress.resetSharedFailed') : '';
  });

  return {
    update({ summary, storage }) {
      if (storage) {
        notice.hidden = !storage.unreadable;
        noticeText.textContent = storage.unreadable
          ? (storage.copy ? t('progress.unreadableCopied', { key: storage.copy }) : t('progress.unreadable'))
          : '';
      }
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
