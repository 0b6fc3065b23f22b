/* The device page's Buttons section (v1.2): each button of ~/buttons with its status and what its
   press, double and hold do, live; the last gesture seen on ~/button/event; and learn mode
   (~/buttons/learn): for its 30 s, every key pressed on a local input device, by name. */
'use strict';
(() => {
  const { el, t, $ } = NC;
  const list = $('#buttons');
  const last = {}; // button id -> its last ~/button/event since this page opened
  let learning = null; // {until (performance.now ms), keys: [{key, at}]}

  // A command action's payload comes beside it, in `payloads` by gesture: "Command noise/set TOGGLE".
  const action = (a, payload) => {
    const s = String(a || 'none');
    if (s.startsWith('timer:')) return t('a_timer', { id: s.slice(6) });
    if (s.startsWith('command:')) return command(s.slice(8), payload);
    const key = 'a_' + s;
    return t(key) === key ? s : t(key);
  };
  /* A command a button sends, in words for the common ones; any other by its topic (the owner's configuration). */
  const COMMANDS = { 'noise/volume/set': 'cmd_noise_volume', 'noise/set': 'cmd_noise', 'noise/sound/set': 'cmd_noise_sound' };
  const PAYLOADS = { ON: 'on', OFF: 'off', TOGGLE: 'toggle' };
  function command(topic, payload) {
    const p = payload ? (PAYLOADS[String(payload).toUpperCase()] ? t(PAYLOADS[String(payload).toUpperCase()]) : String(payload)) : '';
    if (COMMANDS[topic]) return t(COMMANDS[topic], { p }).trim();
    return t('a_command', { c: topic + (payload ? ' ' + payload : '') });
  }
  function row(b) {
    const ok = b.status === 'connected';
    const seen = last[b.id];
    const bindings = ['press', 'double', 'hold'].flatMap((g, i) => [i ? ' · ' : null, el('span', { text: t('g_' + g) + ': ' + action(b[g], (b.payloads || {})[g]) })]);
    return el('div', { class: 'button-row', 'data-nc': 'button-row', 'data-id': b.id, 'data-status': b.status },
      el('div', { class: 'what' }, el('b', { 'data-user': '', text: b.id }), el('small', { text: t(b.source === 'mqtt' ? 'src_mqtt' : 'src_input') })),
      el('div', { class: 'state', 'data-nc': 'button-status' }, el('span', { class: 'dot ' + (ok ? 'good' : 'bad') }),
        t(ok ? 'connected' : 'missing') + (!ok && b.error ? ' — ' + NodeReplies.deviceError(b.error) : '')),
      el('small', { class: 'bindings' }, bindings),
      seen ? el('small', { class: 'bindings', text: t('last_gesture', { g: t('g_' + seen.gesture), t: NC.when(seen.at) }) }) : null);
  }
  function draw() {
    const buttons = Array.isArray(NC.state.buttons) ? NC.state.buttons : [];
    list.textContent = '';
    if (!buttons.length) {
      list.append(NC.detailed(el('div', { class: 'note', 'data-nc': 'no-buttons' }), t('no_buttons'), ['/settings#h-s_buttons', t('open_settings')],
        'buttons: — (docs/bedroom.md)'));
    }
    buttons.forEach((b) => list.append(row(b)));
    // Learn mode reads local input devices: offered when there is one.
    $('#learn-actions').hidden = !buttons.some((b) => b.source === 'input');
  }

  /* Learn mode: the node's answer says for how long; the keys come as ~/button/event with button null. */
  const view = $('#learn-view');
  const keys = $('#learn-keys');
  function drawLearning() {
    if (!learning) return;
    const left = Math.max(0, Math.ceil((learning.until - performance.now()) / 1000));
    $('#learn-left').textContent = left ? t('seconds_left', { n: left }) : t('learn_over');
    $('#learn').disabled = left > 0;
    if (!left) { clearInterval(learning.timer); learning.timer = null; }
  }
  function drawKeys() {
    keys.textContent = '';
    if (!learning.keys.length) keys.append(el('li', { class: 'note', text: t('no_keys') }));
    learning.keys.forEach((k) => keys.append(el('li', { 'data-key': k.key }, el('b', { text: k.key }), ' ', el('small', { class: 'note', text: NC.when(k.at) }))));
  }
  $('#learn').addEventListener('click', async () => {
    const answer = await NC.post('buttons/learn', '');
    NC.report($('#learn-error'), answer);
    if (!answer.ok) return;
    if (learning && learning.timer) clearInterval(learning.timer);
    const seconds = (answer.result && answer.result.seconds) || 30;
    learning = { until: performance.now() + seconds * 1000, keys: [], timer: setInterval(drawLearning, 1000) };
    view.hidden = false;
    drawKeys();
    drawLearning();
  });

  NC.on('button/event', (ev) => {
    if (!ev || typeof ev !== 'object') return;
    if (ev.button === null || ev.button === undefined) {
      if (learning && ev.key && performance.now() < learning.until) { learning.keys.push({ key: ev.key, at: ev.at }); drawKeys(); }
      return;
    }
    last[ev.button] = ev;
    draw();
  });
  NC.on('buttons', draw);
  NC.on('node', () => { draw(); if (learning) { drawKeys(); drawLearning(); } });
})();
