// WCAG 2.4.11 (issue 54): the control that takes the focus is never left under the sticky
// navbar. Browsers scroll a focused control into view, but count the area under a sticky header
// as visible: Shift+Tab up a long page would stop on fields hidden behind it. Only a focus the
// browser shows (the keyboard's): scrolling under a pressed mouse button would move the page
// between its press and its release, and the click would land elsewhere.
document.addEventListener('focusin', (event) => {
  const bar = document.querySelector('header');
  const target = event.target;
  if (!bar || !(target instanceof Element) || bar.contains(target)) return;
  if (!target.matches(':focus-visible')) return;
  if (getComputedStyle(bar).position !== 'sticky' || target.closest('[role=dialog]')) return;
  const covered = bar.getBoundingClientRect().bottom - target.getBoundingClientRect().top;
  if (covered > 0) window.scrollBy({ top: -(covered + 8), behavior: 'instant' });
});
