/* Settings: device tests and button bindings. */
'use strict';
(() => {
  const { el, t } = NC;
  const WORDS = {
    en: { light: 'Test the lamp', shaker: 'Test the shaker', yes: 'Answered: {s} ({ms} ms).', no: 'No answer: {e}.', add: 'Add button' },
    ko: { light: '조명 시험', shaker: '진동기 시험', yes: '응답함: {s} ({ms} ms).', no: '응답 없음: {e}.', add: '버튼 추가' },
  };
  const w = (k, v) => Object.keys(v || {}).reduce((s, n) => s.replace('{' + n + '}', v[n]), (WORDS[NC.lang()] || WORDS.en)[k]);
  const ACTIONS = 'snooze_or_speak snooze dismiss speak_time speak_next_alarm noise_toggle volume_up volume_down light_toggle routine_toggle none';
  let learning = null;
  const btn = (text, more) => el('button', Object.assign({ type: 'button', class: 'btn', text }, more));

  const tests = () => el('div', { class: 'setting' }, ['light', 'shaker'].map((kind) => {
    const out = el('p', { class: 'note', 'data-nc': 'device-test-result', 'data-kind': kind, role: 'status' });
    const button = btn(w(kind), { 'data-nc': 'device-test', 'data-kind': kind });
    button.onclick = async () => {
      const a = await NC.post('devices/test', { kind });
      const r = a.result || {};
      out.textContent = a.ok ? w(r.status === 'confirmed' ? 'yes' : 'no', { s: r.state, ms: r.answered_ms, e: r.error }) : a.error.message;
      out.dataset.status = r.status || '';
    };
    return el('div', { class: 'edit' }, button, out);
  }));

  function buttons(current, send) {
    const list = structuredClone(current.values.buttons || []);
    const box = el('div');
    const err = el('p', { class: 'error', hidden: true });
    const note = el('p', { class: 'note', role: 'status' });
    const form = el('form', { class: 'setting', 'data-key': 'buttons', novalidate: true }, box, el('div', { class: 'actions' },
      btn(w('add'), { 'data-nc': 'binding-add', onclick: () => { list.push({ id: 'button' + (list.length + 1), input: { device: '', key: '' } }); draw(); } }),
      btn(t('save'), { type: 'submit', 'data-nc': 'bindings-save' })), err, note);
    form.onsubmit = (ev) => { ev.preventDefault(); send('settings', { buttons: list }, form, err, note); };
    const text = (obj, key, label) => {
      const input = el('input', { type: 'text', 'aria-label': label, 'data-nc': 'binding-' + key, value: obj[key] || '' });
      input.oninput = () => { obj[key] = input.value.trim(); };
      return input;
    };
    const row = (b, i) => {
      const parts = [text(b, 'id', 'id')];
      if (b.input) {
        const key = text(b.input, 'key', 'input.key');
        parts.push(text(b.input, 'device', 'input.device'), key, btn(t('learn'), { 'data-nc': 'binding-learn', onclick: async () => {
          const a = await NC.post('buttons/learn', { device: b.input.device });
          NC.report(err, a);
          if (a.ok) { learning = { b, input: key }; key.placeholder = t('press_now'); }
        } }));
      }
      for (const g of ['press', 'double', 'hold']) {
        const v = b[g] ?? { press: 'snooze_or_speak', double: 'noise_toggle', hold: 'dismiss' }[g];
        const shown = typeof v === 'string' ? v : JSON.stringify(v);
        const menu = el('select', { 'aria-label': g, 'data-gesture': g },
          [...new Set([shown, ...ACTIONS.split(' ')])].map((a) => el('option', { value: a, text: a })));
        menu.value = shown;
        menu.onchange = () => { b[g] = menu.value[0] === '{' ? JSON.parse(menu.value) : menu.value; };
        parts.push(menu);
      }
      parts.push(btn(t('remove'), { onclick: () => { list.splice(i, 1); draw(); } }));
      return el('div', { class: 'edit', 'data-nc': 'binding' }, parts);
    };
    const draw = () => box.replaceChildren(...list.map(row));
    draw();
    return form;
  }

  NC.on('button/event', (ev) => {
    if (!learning || ev?.button !== null || !ev.key) return;
    learning.b.input.key = learning.input.value = ev.key;
    learning = null;
  });
  NC.settingsExtras = { s_devices: tests, s_buttons: buttons };
})();
