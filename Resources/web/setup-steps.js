/* The first-start wizard's steps (setup.js runs them): each draws its card and saves a choice at
   once (POST /api/settings, audio/test, mqtt/test, alarm/add), says what it did, then moves on. */
'use strict';
const SetupSteps = (() => {
  const { el } = NC;
  /* POST /api/settings: its answer is the settings ({values, …}) or a refusal ({ok: false, error}). */
  async function save(body) {
    const a = await NC.post('settings', body);
    return a && a.values ? { ok: true } : { ok: false, error: (a && a.error) || { code: 'http' } };
  }
  const big = (attrs, text) => el('button', Object.assign({ type: 'button', class: 'btn wide' }, attrs), text);

  function language(ctx) {
    const choose = async (code) => {
      const r = await save({ locale: code });
      if (!r.ok) return ctx.refused(r.error);
      NC.put('node', Object.assign({}, NC.state.node, { locale: code }));
      ctx.done(ctx.w('saved_language'));
    };
    const now = NC.lang();
    return [el('p', { text: ctx.w('language_q') }), el('div', { class: 'choices' },
      big({ lang: 'en', 'data-nc': 'language-en', 'aria-pressed': String(now === 'en'), onclick: () => choose('en') }, 'English'),
      big({ lang: 'ko', 'data-nc': 'language-ko', 'aria-pressed': String(now === 'ko'), onclick: () => choose('ko') }, '한국어'))];
  }

  function zone(ctx) {
    const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const all = Intl.supportedValuesOf('timeZone');
    const choose = async (z) => {
      const r = await save({ timezone: z });
      if (!r.ok) return ctx.refused(r.error);
      ctx.done(ctx.w('saved_zone', { z }));
    };
    const option = (z, attrs) => big(Object.assign({ 'data-nc': 'zone-option', 'data-zone': z, onclick: () => choose(z) }, attrs || {}),
      z.replace(/_/g, ' '));
    const results = el('div', { class: 'choices', id: 'zone-results', 'aria-live': 'polite' });
    const search = el('input', { type: 'search', id: 'zone-search', 'data-nc': 'zone-search', autocomplete: 'off', spellcheck: 'false',
      'aria-controls': 'zone-results' });
    search.addEventListener('input', () => {
      const q = search.value.trim().toLowerCase().replace(/\s+/g, '_');
      const found = q ? all.filter((z) => z.toLowerCase().includes(q)).slice(0, 8) : [];
      results.replaceChildren(...found.map((z) => option(z)));
      if (q && !found.length) results.append(el('p', { class: 'note', text: ctx.w('zone_none', { q: search.value.trim() }) }));
    });
    return [el('p', { text: ctx.w('zone_q') }),
      el('div', { class: 'choices' }, browserZone ? option(browserZone, { 'data-nc': 'zone-browser' }) : null),
      browserZone ? el('p', { class: 'note', text: ctx.w('zone_browser', { z: browserZone }) }) : null,
      el('div', { class: 'field' }, el('label', { for: 'zone-search', text: ctx.w('zone_search') }), search), results];
  }

  function speaker(ctx) {
    const list = el('div', { class: 'choices', 'data-nc': 'speakers' });
    // `default` is ALSA's name for the system's own output: no name a person knows.
    const label = (d) => d.description || (d.name === 'default' ? ctx.w('system_default') : ctx.w('unnamed', { n: d.name }));
    const row = (d) => {
      let silent = !!d.current && !(NC.state.audio && NC.state.audio.status === 'ok'); // the test said (or the node says) it plays nothing
      const test = el('button', { type: 'button', class: 'btn', 'data-nc': 'speaker-test', text: ctx.w('test_sound') });
      // What the test did, in the row itself too: on a phone the line above the step is out of sight.
      const result = el('p', { class: 'note', 'data-nc': 'speaker-result', role: 'status' });
      test.addEventListener('click', async () => {
        test.disabled = true;
        const a = await NC.post('audio/test', { device: d.name });
        test.disabled = false;
        const ok = !!(a && a.ok);
        const error = (a && a.error) || {};
        silent = !ok;
        // The device's own error (ALSA's English) only behind Details, in both languages.
        const text = ok ? ctx.w('played', { d: label(d) }) : error.code === 'audio_unavailable' ? ctx.w('not_played', { d: label(d) })
          : ctx.w('not_tested', { d: label(d), e: NodeReplies.words(Object.assign({}, error, { message: null })) });
        const detail = ok ? null : error.message || error.code || null;
        ctx.say(text, ok, detail);
        result.textContent = '';
        NC.detailed(result, text, null, detail);
        result.dataset.ok = String(ok);
      });
      const use = el('button', { type: 'button', class: 'btn primary', 'data-nc': 'speaker-use', 'aria-pressed': String(!!d.current),
        text: ctx.w('use_speaker'), onclick: async () => {
          const r = await save({ 'audio.device': d.name });
          if (!r.ok) return ctx.refused(r.error);
          // A speaker that did not play is saved as asked, but said plainly: alarms may not be heard.
          if (silent) ctx.done(ctx.w('saved_silent_speaker', { d: label(d) }), true);
          else ctx.done(ctx.w('saved_speaker', { d: label(d) }));
        } });
      return el('div', { class: 'choice', 'data-nc': 'speaker', 'data-device': d.name },
        el('div', { class: 'what' }, el('b', { text: label(d) }),
          d.current ? el('small', { text: ctx.w(NC.state.audio && NC.state.audio.status === 'ok' ? 'in_use' : 'in_use_silent') }) : null),
        test, use, result);
    };
    fetch('/api/audio/devices', { cache: 'no-store' }).then((r) => r.json()).then((devices) => {
      // ALSA's `null` takes the sound and plays none: no speaker a person would choose.
      const usable = (devices || []).filter((d) => (d.description || d.current) && d.name !== 'null');
      list.replaceChildren(...usable.map(row));
      if (!usable.length) list.append(el('p', { class: 'note', text: ctx.w('no_devices') }));
    }).catch((e) => list.replaceChildren(el('p', { class: 'error',
      text: ctx.w('devices_error', { e: NodeReplies.words({ code: 'network', message: String(e.message || e) }) }) })));
    return [el('p', { text: ctx.w('speaker_q') }), list];
  }

  function broker(ctx) {
    const v = ctx.settings.values || {};
    const field = (id, key, attrs) => el('div', { class: 'field' }, el('label', { for: id, text: ctx.w(key) }),
      el('input', Object.assign({ id, 'data-nc': id, autocomplete: 'off', spellcheck: 'false' }, attrs)));
    const host = field('broker-host', 'host', { type: 'text', value: v['mqtt.host'] || '' });
    const port = field('broker-port', 'port', { type: 'number', inputmode: 'numeric', min: 1, max: 65535, value: v['mqtt.port'] || 1883 });
    const user = field('broker-user', 'user', { type: 'text', value: v['mqtt.username'] || '' });
    const pass = field('broker-password', 'password', { type: 'password', autocomplete: 'new-password' });
    const tls = el('input', { type: 'checkbox', role: 'switch', id: 'broker-tls', checked: !!(v['mqtt.tls.ca_file'] || v['mqtt.tls.cert_file']) });
    const result = el('p', { class: 'note', 'data-nc': 'broker-result', role: 'status' });
    const val = (box) => box.querySelector('input').value.trim();
    const address = () => val(host) + ':' + (Number(val(port)) || 1883);
    const test = el('button', { type: 'button', class: 'btn', 'data-nc': 'broker-test', text: ctx.w('test_broker') });
    test.addEventListener('click', async () => {
      if (!val(host)) { result.textContent = ctx.w('need_host'); return; }
      test.disabled = true;
      result.textContent = ctx.w('testing');
      const body = { host: val(host), port: Number(val(port)) || 1883, username: val(user) || null, tls: tls.checked };
      if (val(pass)) body.password = val(pass);
      const a = await NC.post('mqtt/test', body);
      test.disabled = false;
      const r = a && a.ok ? a.result : null;
      result.dataset.ok = String(!!(r && r.connected));
      // The client's reason (free English text) in the page's words; on a Korean page the reason itself behind Details.
      const text = !r ? ctx.w('failed', { e: NodeReplies.words(a && a.error) })
        : r.connected ? ctx.w('broker_ok', { b: r.broker, ms: r.milliseconds })
          : ctx.w('broker_bad', { b: r.broker, r: NodeReplies.brokerReason(r.reason) });
      const detail = !r ? NodeReplies.detail(a && a.error) : !r.connected && NC.lang() === 'ko' ? r.reason : null;
      result.textContent = '';
      NC.detailed(result, text, null, detail);
    });
    const use = el('button', { type: 'button', class: 'btn primary', 'data-nc': 'broker-use', text: ctx.w('use_broker'), onclick: async () => {
      if (!val(host)) { result.textContent = ctx.w('need_host'); return; }
      const body = { 'mqtt.host': val(host), 'mqtt.port': Number(val(port)) || 1883, 'mqtt.username': val(user) || null };
      if (val(pass)) body['mqtt.password'] = val(pass);
      const r = await save(body);
      if (!r.ok) return ctx.refused(r.error);
      ctx.done(ctx.w('saved_broker', { b: address() }));
    } });
    const none = el('button', { type: 'button', class: 'btn', 'data-nc': 'broker-none', text: ctx.w('no_broker'),
      onclick: () => ctx.done(ctx.w('saved_no_broker')) });
    return [el('p', { text: ctx.w('broker_q') }), host, port, user, pass,
      el('label', { class: 'row' }, el('span', { class: 'name', text: ctx.w('tls') }), el('span', { class: 'switch' }, tls)),
      el('div', { class: 'actions' }, test, use), result, el('div', { class: 'actions' }, none)];
  }

  function alarm(ctx) {
    // A real time already set, as a phone's clock offers one (a grey example looked set and was not);
    // a tap selects it, so what is typed replaces it.
    const time = el('input', { type: 'text', id: 'setup-time', 'data-nc': 'setup-time', class: 'time-big', inputmode: 'numeric',
      pattern: '([01]?[0-9]|2[0-3]):[0-5][0-9]', maxlength: '5', autocomplete: 'off', value: '07:00' });
    time.addEventListener('focus', () => time.select());
    const PRESETS = [['once', []], ['weekdays', ['mon', 'tue', 'wed', 'thu', 'fri']], ['weekends', ['sat', 'sun']], ['daily', NC.DAYS]];
    let days = [];
    const presets = PRESETS.map(([key, value]) => el('button', { type: 'button', class: 'btn', 'data-nc': 'preset-' + key,
      'aria-pressed': String(key === 'once'), text: NC.t(key), onclick: (ev) => {
        days = value;
        presets.forEach((b) => b.setAttribute('aria-pressed', String(b === ev.currentTarget)));
      } }));
    const fade = el('select', { id: 'setup-fade', 'data-nc': 'setup-fade' });
    AlarmFade.fill(fade);
    const err = el('p', { class: 'error', hidden: true });
    const add = el('button', { type: 'button', class: 'btn primary big', 'data-nc': 'alarm-add', text: ctx.w('add_alarm'), onclick: async () => {
      const m = /^([01]?\d|2[0-3]):?([0-5]\d)$/.exec(time.value.trim());
      if (!m) { NC.report(err, { ok: false, error: { message: ctx.w('bad_time') } }); time.focus(); return; }
      const at = NC.pad(Number(m[1])) + ':' + m[2];
      const a = await NC.post('alarm/add', { time: at, repeat: days, ramp_seconds: Number(fade.value), label: NC.t('ringing') });
      NC.report(err, a);
      if (a && a.ok) ctx.done(ctx.w('saved_alarm', { t: at, r: NC.repeatText(days) }));
    } });
    return [el('p', { text: ctx.w('alarm_q') }),
      el('div', { class: 'field' }, el('label', { for: 'setup-time', text: NC.t('time') }), time),
      el('fieldset', {}, el('legend', { text: NC.t('repeat') }), el('div', { class: 'presets' }, presets)),
      el('div', { class: 'field' }, el('label', { for: 'setup-fade', text: AlarmFade.label() }), fade),
      err, el('div', { class: 'actions' }, add)];
  }

  function done(ctx) {
    const finish = el('button', { type: 'button', class: 'btn primary big', 'data-nc': 'setup-finish', text: ctx.w('finish'), onclick: async () => {
      const a = await NC.post('setup/done', {});
      if (!a || !a.ok) return ctx.refused(a && a.error);
      ctx.say(ctx.w('done_saved'), true);
      location.assign('/');
    } });
    return [el('p', { text: ctx.w('done_q') }), el('ul', { 'data-nc': 'setup-summary' }, ctx.log.map((line) => el('li', { text: line }))),
      el('div', { class: 'actions' }, finish)];
  }

  return [['language', language], ['zone', zone], ['speaker', speaker], ['broker', broker], ['alarm', alarm], ['done', done]];
})();
