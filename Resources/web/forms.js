/* The pages with a list and a form (alarms, routines; the radio and setup pages use a few):
   repeat days, a form's refusals under its fields, and a list row's switch and tools. */
'use strict';

(() => {
  const { t, el, $, post, report, refusal } = NC;

  const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const checkedDays = (form) => [...form.querySelectorAll('[name=repeat]:checked')].map((i) => i.value);
  /* The form's seven repeat day chips in `box`, in the locale's names, keeping what was checked. */
  function dayChips(form, box) {
    const names = t('days');
    const checked = new Set(checkedDays(form));
    box.textContent = '';
    DAYS.forEach((d, i) => box.append(el('label', {}, el('input', { type: 'checkbox', name: 'repeat', value: d, checked: checked.has(d), 'aria-label': names[i] }), el('span', { 'aria-hidden': 'true', text: names[i] }))));
  }
  /* What a repeat of `days` is called: once, daily, weekdays, weekends, or the days by name. */
  function repeatText(days) {
    const key = days.length === 0 ? 'once' : days.length === 7 ? 'daily' : days.join() === 'mon,tue,wed,thu,fri' ? 'weekdays' : days.join() === 'sat,sun' ? 'weekends' : null;
    return key ? t(key) : days.map((d) => t('days')[DAYS.indexOf(d)]).join(', ');
  }
  /* A form's refusal under its field (opening the "More options" it is in, and focused), else under
     the form; null or an accepted answer clears them. */
  function formErrors(form, answer) {
    form.querySelectorAll('.error[data-for]').forEach((p) => { p.hidden = true; p.textContent = ''; });
    if (!answer || answer.ok) return;
    const e = answer.error || {};
    const p = form.querySelector(`.error[data-for="${e.field || ''}"]`) || form.querySelector('.error[data-for=""]');
    refusal(p, e); p.hidden = false;
    if (p.dataset.for && p.closest('details')) p.closest('details').open = true;
    const input = e.field && form.elements[e.field];
    if (input && input.focus) input.focus();
  }
  /* Sends the form's command (its #submit disabled meanwhile): the refusal shown, or done() once accepted. */
  async function sendForm(form, command, body, done) {
    $('#submit').disabled = true;
    const answer = await post(command, body);
    $('#submit').disabled = false;
    formErrors(form, answer);
    if (answer.ok) done(answer);
  }
  /* A list row's error line, its commands on `id` (a refusal shown in that line) and its enabled
     switch, which sends `<kind>/enable` or `<kind>/disable`. */
  function rowControls(kind, id, label, enabled) {
    const err = el('p', { class: 'error', hidden: true });
    const act = (command, payload) => async () => { report(err, await post(command, payload === undefined ? id : payload)); };
    const sw = el('input', { type: 'checkbox', role: 'switch', checked: enabled, 'aria-label': t('enabled') + ': ' + label });
    sw.addEventListener('change', () => act(kind + (sw.checked ? '/enable' : '/disable'))());
    return { err, act, sw };
  }

  /* A row of a list the page's form edits (alarms, routines): `when`, the item's label over
     `lines`, its enabled switch, its tools and its error line. `tools(act, edit)` gives the page's
     own buttons, the edit button among them where it goes; delete (asking `confirm` first) is last.
     Edit fills `form` with the item (`edit`) and brings it into view with the field `focus` focused. */
  function formRow(kind, item, { className, when, lines, tools, form, edit, focus, confirm: question }) {
    const { err, act, sw } = rowControls(kind, item.id, item.label, item.enabled);
    const editButton = el('button', { type: 'button', class: 'btn', text: t('edit'),
      onclick: () => { edit(item); form.scrollIntoView({ behavior: 'smooth' }); form[focus].focus(); } });
    const remove = el('button', { type: 'button', class: 'btn danger', text: t('delete'),
      onclick: () => { if (confirm(t(question, { l: item.label }))) act(kind + '/delete')(); } });
    return el('div', { class: className, 'data-nc': kind + '-row', 'data-id': item.id },
      el('div', { class: 'when', text: when }),
      el('div', { class: 'what' }, el('b', { text: item.label }), lines),
      el('label', { class: 'switch' }, sw),
      el('div', { class: 'tools' }, tools(act, editButton), remove),
      err);
  }
  /* A switch (checkbox) inside a row: <label class="row"><span>text</span><span class="switch"><input></span></label>. */
  function toggleRow(name, key) {
    return el('label', { class: 'row' }, el('span', { class: 'name', 'data-i18n': key || name, text: t(key || name) }),
      el('span', { class: 'switch' }, el('input', { type: 'checkbox', name, role: 'switch' })));
  }

  Object.assign(NC, { DAYS, checkedDays, dayChips, repeatText, formErrors, sendForm, rowControls, formRow, toggleRow });
})();
