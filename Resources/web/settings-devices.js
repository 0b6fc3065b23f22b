/* Settings: device tests; button bindings (saved by the `buttons` row). */
'use strict';
(() => {
  const { el, t } = NC;
  const WORDS = {
    en: { light: 'Test the lamp', shaker: 'Test the shaker', yes: (r) => `Answered: ${r.state} (${r.answered_ms} ms).`,
      no: () => 'No answer: check that it is on and paired, and its name above.', add: 'Add button',
      id: 'Button name', device: 'Input device', key: 'Key', press: 'On a press', double: 'On a double press', hold: 'On a hold',
      a: { snooze_or_speak: 'Snooze, or say the time', snooze: 'Snooze', dismiss: 'Turn the alarm off', speak_time: 'Say the time',
        speak_next_alarm: 'Say the next alarm', noise_toggle: 'Noise on or off', volume_up: 'Louder', volume_down: 'Quieter',
        light_toggle: 'Lamp on or off', routine_toggle: 'Routine on or off', none: 'Nothing' }, other: 'A command' },
    ko: { light: '조명 시험', shaker: '진동기 시험', yes: (r) => `응답함: ${r.state} (${r.answered_ms} ms).`,
      no: () => '응답 없음: 전원과 연결, 위의 이름을 확인하세요.', add: '버튼 추가',
      id: '버튼 이름', device: '입력 장치', key: '키', press: '누르면', double: '두 번 누르면', hold: '길게 누르면',
      a: { snooze_or_speak: '다시 알림 또는 시간 말하기', snooze: '다시 알림', dismiss: '알람 끄기', speak_time: '시간 말하기',
        speak_next_alarm: '다음 알람 말하기', noise_toggle: '소리 켜기/끄기', volume_up: '크게', volume_down: '작게',
        light_toggle: '조명 켜기/끄기', routine_toggle: '루틴 켜기/끄기', none: '아무것도 안 함' }, other: '명령' },
  };
  const w = (k) => (WORDS[NC.lang()] || WORDS.en)[k];
  const ACTIONS = 'snooze_or_speak snooze dismiss speak_time speak_next_alarm noise_toggle volume_up volume_down light_toggle routine_toggle none';
  const btn = (text, more) => el('button', { type: 'button', class: 'btn', text, ...more });
  let learning = null;

  const tests = () => el('div', { class: 'setting device-tests' }, ['light', 'shaker'].map((kind) => {
    const out = el('p', { class: 'note', 'data-nc': 'device-test-result', 'data-kind': kind, role: 'status' });
    const button = btn(w(kind), { 'data-nc': 'device-test', 'data-kind': kind });
    button.onclick = async () => {
      const a = await NC.post('devices/test', { kind });
      const r = a.result || {};
      out.textContent = a.ok ? w(r.status === 'confirmed' ? 'yes' : 'no')(r) : SettingsControls.w('failed');
      out.dataset.status = r.status || '';
    };
    return el('div', { class: 'edit' }, button, out);
  }));

  function buttons(row) {
    const field = row.querySelector('textarea');
    let list = [];
    try { list = JSON.parse(field.value) || []; } catch (e) { /* none yet */ }
    const box = el('div');
    const err = el('p', { class: 'error', hidden: true });
    const text = (obj, key) => {
      const input = el('input', { type: 'text', 'aria-label': w(key), 'data-nc': 'binding-' + key, 'data-user': '', value: obj[key] });
      input.oninput = () => { obj[key] = input.value.trim(); };
      return input;
    };
    const line = (b, i) => {
      const parts = [text(b, 'id')];
      if (b.input) {
        const key = text(b.input, 'key');
        parts.push(text(b.input, 'device'), key, btn(t('learn'), { 'data-nc': 'binding-learn', onclick: async () => {
          const a = await NC.post('buttons/learn', { device: b.input.device });
          NC.report(err, a);
          if (a.ok) { learning = { b, input: key }; key.placeholder = t('press_now'); }
        } }));
      }
      for (const g of ['press', 'double', 'hold']) {
        const v = b[g] ?? ACTIONS.split(' ')[{ press: 0, double: 5, hold: 2 }[g]]; // default
        const shown = typeof v === 'string' ? v : JSON.stringify(v);
        const menu = el('select', { 'aria-label': w(g), 'data-gesture': g },
          [...new Set([shown, ...ACTIONS.split(' ')])].map((a) => el('option', { value: a, text: w('a')[a] || w('other') })));
        menu.value = shown;
        menu.onchange = () => { b[g] = menu.value[0] === '{' ? JSON.parse(menu.value) : menu.value; };
        parts.push(menu);
      }
      parts.push(btn(t('remove'), { onclick: () => { list.splice(i, 1); draw(); } }));
      return el('div', { class: 'edit', 'data-nc': 'binding' }, parts);
    };
    const draw = () => box.replaceChildren(...list.map(line));
    draw();
    return el('div', { class: 'setting' }, box, el('div', { class: 'actions' },
      btn(w('add'), { 'data-nc': 'binding-add', onclick: () => { list.push({ id: 'button' + (list.length + 1), input: { device: '', key: '' } }); draw(); } }),
      btn(t('save'), { 'data-nc': 'bindings-save', onclick: () => { field.value = JSON.stringify(list); row.closest('form').requestSubmit(); } })), err);
  }

  NC.on('button/event', (ev) => {
    if (!learning || ev?.button !== null || !ev.key) return;
    learning.b.input.key = learning.input.value = ev.key;
    learning = null;
  });
  document.addEventListener('nc-settings-drawn', () => {
    const section = (title) => document.querySelector(`[data-nc="settings-section"][data-section="${title}"]`);
    const row = document.querySelector('[data-nc="setting"][data-key="buttons"]');
    section('s_devices')?.insertBefore(tests(), section('s_devices').querySelector('.actions'));
    // The editor instead of the JSON (kept, hidden, as what Save sends).
    if (row && !row.querySelector('textarea').disabled) { row.append(buttons(row)); row.querySelector(':scope > .edit').hidden = true; }
  });
})();
