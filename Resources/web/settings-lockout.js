/* Settings, no lock-out (docs/web.md): Test connection and a broker change's state in Broker; a
   new web address's countdown, link and Keep in Web. Drawn on each nc-settings-drawn (settings.js). */
'use strict';
(() => {
  const { el } = NC;
  const WORDS = {
    en: {
      test_note: 'Tries the host, port and user above (saved or not); changes nothing.', password: 'Password (not kept)',
      test: 'Test connection',
      testing: 'Testing…', test_ok: 'Connected to {b} in {ms} ms.', test_bad: 'Could not connect to {b}: {r}',
      b_connecting: 'Connecting to {b}… (rolled back unless it connects within 10 s)', b_connected: 'Connected to {b} ({s} s).',
      b_rolled_back: 'Rolled back: {r}',
      w_pending: 'The web app also answers at {a} now. Open it there and press “Keep this address” within {n} s, or it goes back.',
      w_here: 'This is the new address. Keep it within {n} s, or it goes back.', keep: 'Keep this address',
      w_confirmed: 'Now at {a}.', w_reverted: 'Went back to the old address: the new one was not kept in time.', w_failed: 'Not changed: {r}', open: 'Open {a}',
    },
    ko: {
      test_note: '위의 호스트, 포트, 사용자로 연결해 봅니다 (저장 안 해도 됨). 아무것도 바꾸지 않습니다.', password: '비밀번호 (저장 안 함)',
      test: '연결 시험',
      testing: '시험 중…', test_ok: '{b}에 {ms} ms 만에 연결됨.', test_bad: '{b}에 연결할 수 없음: {r}',
      b_connecting: '{b}에 연결 중… (10초 안에 연결되지 않으면 되돌립니다)', b_connected: '{b}에 연결됨 ({s}초).',
      b_rolled_back: '되돌림: {r}',
      w_pending: '이제 웹 앱이 {a}에서도 응답합니다. 그 주소를 열고 {n}초 안에 “이 주소 유지”를 누르지 않으면 되돌아갑니다.',
      w_here: '새 주소입니다. {n}초 안에 유지하지 않으면 되돌아갑니다.', keep: '이 주소 유지',
      w_confirmed: '이제 {a}에 있습니다.', w_reverted: '이전 주소로 되돌아갔습니다: 새 주소를 제때 유지하지 않았습니다.', w_failed: '바뀌지 않음: {r}', open: '{a} 열기',
    },
  };
  function w(key, vars) {
    let s = (WORDS[NC.lang()] || WORDS.en)[key] || WORDS.en[key] || key;
    for (const k in vars || {}) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  const sectionOf = (key) => {
    const row = document.querySelector(`[data-nc="setting"][data-key="${key}"]`);
    return row ? row.closest('form') : null;
  };
  let polling = null;
  let ticking = null;
  let drawn = {}; // the trials' states as last drawn

  /* During a trial: ask every `ms`, redraw only when a state changes (typing is kept). */
  function again(ms) {
    clearTimeout(polling);
    polling = setTimeout(async () => {
      try {
        const r = await fetch('/api/settings', { cache: 'no-store' });
        const answer = await r.json();
        const now = { broker: answer.broker && answer.broker.state, web: answer.web && answer.web.state };
        if (now.broker !== drawn.broker || now.web !== drawn.web) { NC.settingsReload(); return; }
      } catch (e) { /* the old address closed: keep asking */ }
      again(ms);
    }, ms);
  }

  function brokerStatus(st) {
    if (!st) return null;
    const text = st.state === 'connecting' ? w('b_connecting', { b: st.broker })
      : st.state === 'connected' ? w('b_connected', { b: st.broker, s: st.seconds }) : w('b_rolled_back', { r: NodeReplies.brokerReason(st.reason) });
    // The client's reason is English: on a Korean page in words, the reason itself behind Details.
    return NC.detailed(el('p', { class: st.state === 'rolled_back' ? 'error' : 'note', role: 'status', 'data-nc': 'broker-status',
      'data-state': st.state }), text, null, st.state === 'rolled_back' && NC.lang() === 'ko' ? st.reason : null);
  }

  /* Tests what the Broker fields say now (saved or not), with the node's TLS files if it has them. */
  function testForm(values) {
    const val = (key) => { const i = document.getElementById('s-' + key.replace(/[^a-z0-9]/gi, '-')); return i ? i.value.trim() : ''; };
    const pass = el('input', { id: 'mt-pass', type: 'password', autocomplete: 'new-password' });
    const result = el('p', { class: 'note', role: 'status', 'data-nc': 'mqtt-test-result' });
    const err = el('p', { class: 'error', hidden: true });
    const form = el('div', { class: 'setting', 'data-nc': 'mqtt-test' },
      el('div', { class: 'head' }, el('strong', { text: w('test') }), el('span', { class: 'note', text: w('test_note') })),
      el('div', { class: 'field' }, el('label', { for: 'mt-pass', text: w('password') }), pass),
      el('div', { class: 'actions' }, el('button', { type: 'button', class: 'btn', 'data-nc': 'mqtt-test-run', text: w('test') })), result, err);
    form.querySelector('button').addEventListener('click', async () => {
      const button = form.querySelector('button');
      button.disabled = true;
      result.textContent = w('testing');
      result.removeAttribute('data-ok');
      const body = { host: val('mqtt.host'), port: Number(val('mqtt.port')) || 1883, username: val('mqtt.username') || null,
        tls: !!(values['mqtt.tls.ca_file'] || values['mqtt.tls.cert_file']) };
      if (pass.value) body.password = pass.value;
      const answer = await NC.post('mqtt/test', body);
      button.disabled = false;
      NC.report(err, answer);
      const r = answer && answer.ok ? answer.result : null;
      result.textContent = '';
      if (r) {
        NC.detailed(result, r.connected ? w('test_ok', { b: r.broker, ms: r.milliseconds })
          : w('test_bad', { b: r.broker, r: NodeReplies.brokerReason(r.reason) }), null, !r.connected && NC.lang() === 'ko' ? r.reason : null);
      }
      if (r) result.dataset.ok = String(r.connected);
    });
    return form;
  }

  function servedFrom(address) {
    try { return new URL(address).port === location.port; } catch (e) { return false; }
  }

  function webStatus(st) {
    clearInterval(ticking);
    if (!st) return null;
    const box = el('div', { class: 'setting', 'data-nc': 'web-status', 'data-state': st.state });
    if (st.state !== 'pending') {
      box.append(el('p', { class: st.state === 'confirmed' ? 'note' : 'error', role: 'status',
        text: st.state === 'confirmed' ? w('w_confirmed', { a: st.address }) : w('w_' + st.state, { r: st.reason }) }));
      // A revert in words; the node's own reason (its addresses, in English) behind "Details" (issue 41).
      if (st.state === 'reverted' && st.reason) NC.detailed(box, '', null, st.reason);
      return box;
    }
    const here = servedFrom(st.address);
    let left = st.seconds_left;
    const text = el('p', { class: 'note', role: 'status', 'data-nc': 'web-countdown', 'data-seconds': left });
    const say = () => { text.textContent = w(here ? 'w_here' : 'w_pending', { a: st.address, n: left }); text.dataset.seconds = left; };
    say();
    ticking = setInterval(() => {
      left = Math.max(0, left - 1);
      say();
      if (left === 0) clearInterval(ticking);
    }, 1000);
    box.append(text);
    if (here) {
      const err = el('p', { class: 'error', hidden: true });
      box.append(el('div', { class: 'actions' }, el('button', { type: 'button', class: 'btn', 'data-nc': 'web-confirm', text: w('keep'),
        onclick: async () => { const answer = await NC.post('settings/confirm', {}); NC.report(err, answer); NC.settingsReload(); } })), err);
    } else {
      box.append(el('div', { class: 'actions' }, el('a', { class: 'btn', 'data-nc': 'web-address', href: st.address + 'settings',
        text: w('open', { a: st.address }) })));
    }
    return box;
  }

  document.addEventListener('nc-settings-drawn', (ev) => {
    const current = ev.detail;
    drawn = { broker: current.broker && current.broker.state, web: current.web && current.web.state };
    clearTimeout(polling);
    if (drawn.broker === 'connecting') again(300);
    else if (drawn.web === 'pending') again(1000);
    const broker = sectionOf('mqtt.host');
    if (broker) {
      const status = brokerStatus(current.broker);
      if (status) broker.prepend(status);
      // Under "More options": a person with a working broker rarely needs it; the wizard has one too.
      const more = broker.querySelector('details.more');
      if (more) more.insertBefore(testForm(current.values), more.querySelector('summary').nextSibling);
      else broker.append(testForm(current.values));
    }
    const web = sectionOf('web.port');
    const status = webStatus(current.web);
    if (web && status) web.prepend(status);
  });
})();
