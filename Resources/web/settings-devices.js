/* The settings page's lamp, shaker and buttons (issue 30), beside settings.js: "Test" for the
   lamp and the shaker (POST /api/devices/test: the device's word, or that none came in 5 s), and
   the buttons as bindings (add, remove, learn the key with buttons/learn {device}, choose the
   press/double/hold actions), saved as the one `buttons` key. Both apply at once. */
'use strict';
(() => {
  const { el } = NC;
  const WORDS = {
    en: {
      test_light: 'Test the lamp', test_shaker: 'Test the shaker', testing: 'Asking the device…',
      confirmed: 'It answered: {s} ({ms} ms).', unconfirmed: 'No answer: {e}.', not_set: 'Set its topic first.',
      bindings: 'Bindings', add: 'Add a button', remove: 'Remove', learn: 'Learn', save: 'Save buttons',
      b_id: 'Name', b_device: 'Input device', b_key: 'Key', b_mqtt: 'Over MQTT: {t} (edit it as JSON below)',
      press_now: 'Press your button now ({n} s)…', learned: 'Learned {k}.', no_key: 'No key pressed in time.',
      g_press: 'Press', g_double: 'Double', g_hold: 'Hold', none_yet: 'No buttons yet.',
    },
    ko: {
      test_light: '조명 시험', test_shaker: '진동기 시험', testing: '장치에 묻는 중…',
      confirmed: '응답함: {s} ({ms} ms).', unconfirmed: '응답 없음: {e}.', not_set: '먼저 토픽을 정하세요.',
      bindings: '연결', add: '버튼 추가', remove: '삭제', learn: '키 배우기', save: '버튼 저장',
      b_id: '이름', b_device: '입력 장치', b_key: '키', b_mqtt: 'MQTT로: {t} (아래 JSON에서 편집)',
      press_now: '지금 버튼을 누르세요 ({n}초)…', learned: '{k}를 배웠습니다.', no_key: '시간 안에 누른 키가 없습니다.',
      g_press: '누르기', g_double: '두 번', g_hold: '길게', none_yet: '아직 버튼이 없습니다.',
    },
  };
  function w(key, vars) {
    let s = (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key] || key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  const ACTIONS = ['snooze_or_speak', 'snooze', 'dismiss', 'speak_time', 'speak_next_alarm', 'noise_toggle', 'volume_up',
    'volume_down', 'light_toggle', 'routine_toggle', 'none'];
  const DEFAULTS = { press: 'snooze_or_speak', double: 'noise_toggle', hold: 'dismiss' };

  /* Lamp and bed shaker: one Test per device. */
  function tests(current) {
    return el('div', { class: 'setting', 'data-nc': 'device-tests' }, ['light', 'shaker'].map((kind) => {
      const out = el('p', { class: 'note', 'data-nc': 'device-test-result', 'data-kind': kind, role: 'status' });
      const err = el('p', { class: 'error', hidden: true });
      const set = !!current.values['devices.' + kind + '.topic'];
      const button = el('button', { type: 'button', class: 'btn', 'data-nc': 'device-test', 'data-kind': kind, text: w('test_' + kind) });
      button.addEventListener('click', async () => {
        button.disabled = true;
        delete out.dataset.status;
        out.textContent = w('testing');
        const answer = await NC.post('devices/test', { kind });
        button.disabled = false;
        NC.report(err, answer);
        const r = answer && answer.ok && answer.result;
        out.textContent = !r ? '' : r.status === 'confirmed' ? w('confirmed', { s: r.state, ms: r.answered_ms }) : w('unconfirmed', { e: r.error });
        if (r) out.dataset.status = r.status;
      });
      return el('div', { class: 'edit' }, button, set ? out : el('span', { class: 'note', text: w('not_set') }), err);
    }));
  }

  /* Buttons: the bindings of `buttons`, edited here and saved whole. */
  function buttons(current, send) {
    const list = JSON.parse(JSON.stringify(Array.isArray(current.values.buttons) ? current.values.buttons : []));
    const box = el('div', { class: 'bindings' });
    const err = el('p', { class: 'error', hidden: true });
    const note = el('p', { class: 'note', role: 'status' });
    const form = el('form', { class: 'setting', 'data-nc': 'button-bindings', 'data-key': 'buttons', novalidate: true },
      el('div', { class: 'head' }, el('span', { text: w('bindings') })), box,
      el('div', { class: 'actions' },
        el('button', { type: 'button', class: 'btn', 'data-nc': 'binding-add', text: w('add'),
          onclick: () => { list.push({ id: 'button' + (list.length + 1), input: { device: '/dev/input/event0', key: '' } }); draw(); } }),
        el('button', { type: 'submit', class: 'btn', 'data-nc': 'bindings-save', text: w('save') })), err, note);
    form.addEventListener('submit', (ev) => { ev.preventDefault(); send('settings', { buttons: list }, form, err, note); });

    function field(label, value, change, attrs) {
      const id = 'bd-' + Math.random().toString(36).slice(2, 8);
      const input = el('input', Object.assign({ id, type: 'text', autocomplete: 'off', spellcheck: 'false' }, attrs || {}));
      input.value = value || '';
      input.addEventListener('input', () => change(input.value.trim()));
      return [el('label', { for: id, text: label }), input];
    }
    function action(b, gesture) {
      const id = 'bd-' + Math.random().toString(36).slice(2, 8);
      const value = b[gesture] === undefined ? DEFAULTS[gesture] : b[gesture];
      const shown = typeof value === 'string' ? value : JSON.stringify(value);
      const names = ACTIONS.includes(shown) ? ACTIONS : [shown].concat(ACTIONS);
      const menu = el('select', { id, 'data-gesture': gesture }, names.map((n) => el('option', { value: n, text: n })));
      menu.value = shown;
      menu.addEventListener('change', () => { b[gesture] = menu.value.startsWith('{') ? JSON.parse(menu.value) : menu.value; });
      return [el('label', { for: id, text: w('g_' + gesture) }), menu];
    }
    function row(b, index) {
      const status = el('p', { class: 'note', 'data-nc': 'binding-learn', role: 'status' });
      let source;
      if (b.input) {
        const [keyLabel, key] = field(w('b_key'), b.input.key, (v) => { b.input.key = v; }, { 'data-nc': 'binding-key' });
        const learn = el('button', { type: 'button', class: 'btn', 'data-nc': 'binding-learn-start', text: w('learn') });
        learn.addEventListener('click', async () => learnKey(b, key, learn, status, err));
        source = [field(w('b_device'), b.input.device, (v) => { b.input.device = v; }, { 'data-nc': 'binding-device' }), keyLabel, key, learn];
      } else {
        source = [el('span', { class: 'note', text: w('b_mqtt', { t: (b.mqtt && b.mqtt.topic) || '' }) })];
      }
      // el() flattens one level: the label-and-field pairs are flattened here.
      return el('div', { class: 'binding', 'data-nc': 'binding', 'data-id': b.id }, [
        field(w('b_id'), b.id, (v) => { b.id = v; }, { 'data-nc': 'binding-id' }), source,
        ['press', 'double', 'hold'].map((g) => action(b, g)),
        el('button', { type: 'button', class: 'btn', 'data-nc': 'binding-remove', text: w('remove'),
          onclick: () => { list.splice(index, 1); draw(); } }), status].flat(3));
    }
    function draw() {
      box.textContent = '';
      if (!list.length) box.append(el('p', { class: 'note', text: w('none_yet') }));
      list.forEach((b, i) => box.append(row(b, i)));
    }
    draw();
    return form;
  }

  /* Learn mode on the binding's device (bound or not): the first key pressed becomes its key. */
  let learning = null; // {binding, input, status, until, timer}
  async function learnKey(b, input, button, status, err) {
    const answer = await NC.post('buttons/learn', { device: b.input.device });
    NC.report(err, answer);
    if (!answer.ok) return;
    if (learning) clearInterval(learning.timer);
    const seconds = (answer.result && answer.result.seconds) || 30;
    learning = { binding: b, input, status, until: performance.now() + seconds * 1000 };
    const tick = () => {
      const left = Math.ceil((learning.until - performance.now()) / 1000);
      if (left > 0) { status.textContent = w('press_now', { n: left }); return; }
      clearInterval(learning.timer);
      status.textContent = w('no_key');
      learning = null;
    };
    learning.timer = setInterval(tick, 1000);
    tick();
  }
  NC.on('button/event', (ev) => {
    if (!learning || !ev || ev.button !== null || !ev.key) return;
    clearInterval(learning.timer);
    learning.binding.input.key = ev.key;
    learning.input.value = ev.key;
    learning.status.textContent = w('learned', { k: ev.key });
    learning.status.dataset.key = ev.key;
    learning = null;
  });

  /* settings.js adds these at the end of their sections. */
  NC.settingsExtras = { s_devices: tests, s_buttons: buttons };
})();
