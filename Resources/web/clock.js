/* The node's clock, on every page after app.js: anchored on the last `time` payload (its epoch and
   the offset in its iso), advanced by performance.now(), never by the browser's clock or time zone. */
'use strict';

(() => {
  const { state, on, t, lang } = NC;
  let anchor = null; // {epoch, offset (s), perf (ms)}

  // The first handler of `time` (this file runs before any page's script), so every other one reads the new anchor.
  on('time', (payload) => {
    if (!payload || typeof payload.epoch !== 'number') return;
    // A payload names the boundary just passed (or, from /api/state, the second now). If our
    // own count is already inside that period, it is the better one (the payload may have
    // come late, e.g. right after the node's clock jumped); otherwise start again from it.
    const period = state.style && state.style.show_seconds ? 1 : 60;
    const current = nodeEpoch();
    const offset = zoneOffset(payload.iso);
    if (current !== null && current >= payload.epoch && current < payload.epoch + period) anchor.offset = offset;
    else anchor = { epoch: payload.epoch, offset, perf: performance.now() };
  });

  function zoneOffset(iso) {
    const m = /([+-])(\d\d):?(\d\d)$/.exec(iso || '');
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 3600 + Number(m[3]) * 60) : 0;
  }
  /* Seconds since the epoch on the node's clock, now (fractional), or null before any time. */
  function nodeEpoch() { return anchor ? anchor.epoch + (performance.now() - anchor.perf) / 1000 : null; }
  /* Wall time in the node's zone: {h, m, s, frac} for the node's now. */
  function nodeWall() {
    const e = nodeEpoch();
    if (e === null) return null;
    const local = e + anchor.offset;
    const whole = Math.floor(local);
    const sod = ((whole % 86400) + 86400) % 86400;
    return { h: Math.floor(sod / 3600), m: Math.floor(sod / 60) % 60, s: sod % 60, frac: local - whole, day: Math.floor(whole / 86400) };
  }
  const pad = (n) => (n < 10 ? '0' : '') + n;
  /* The time as ~/time's display shows it, for wall time w and style st. */
  function display(w, st) {
    st = st || state.style || {};
    let h = w.h;
    let text;
    if (st.use_24_hour === false) { h = h % 12 || 12; text = h + ':' + pad(w.m); } else text = pad(h) + ':' + pad(w.m);
    if (st.show_seconds) text += ':' + pad(w.s);
    return text;
  }
  function ampm(w, st) {
    st = st || state.style || {};
    if (st.use_24_hour !== false || st.show_ampm === false) return null;
    const pm = w.h >= 12;
    return lang() === 'ko' ? (pm ? '오후' : '오전') : (pm ? 'PM' : 'AM');
  }
  /* "HH:MM" (or 12-hour) of an ISO time with offset, read in the zone the string carries. */
  function clockOf(iso, st) {
    const m = /T(\d\d):(\d\d)/.exec(iso || '');
    if (!m) return '';
    st = st || state.style || {};
    const h = Number(m[1]);
    if (st.use_24_hour === false) {
      const pm = h >= 12;
      const hh = (h % 12 || 12) + ':' + m[2];
      return lang() === 'ko' ? (pm ? '오후 ' : '오전 ') + hh : hh + (pm ? ' PM' : ' AM');
    }
    return m[1] + ':' + m[2];
  }
  /* The weekday index (0 = Mon) and day number of an ISO date; and whether it is the node's today. */
  function dayOf(iso) {
    const m = /^(\d{4})-(\d\d)-(\d\d)/.exec(iso || '');
    if (!m) return null;
    const days = Math.floor(Date.UTC(+m[1], +m[2] - 1, +m[3]) / 86400000);
    return { days, weekday: (((days + 3) % 7) + 7) % 7 };
  }
  /* A short "when" for an ISO moment: the time, prefixed by the weekday unless it is today. */
  function when(iso) {
    if (!iso) return '';
    const d = dayOf(iso);
    const w = nodeWall();
    const today = w ? w.day : null;
    const time = clockOf(iso);
    if (!d || d.days === today) return time;
    return t('days')[d.weekday] + ' ' + time;
  }
  /* A time field follows the node's clock style. Chromium's time input shows AM/PM or not by the
     browser's locale, whatever the page's lang, so on a 24-hour node (the default, also before the
     style is known) it is a plain HH:MM text field; on a 12-hour node the time input, with AM/PM.
     The value ("06:30") is the same in both, so the forms read and fill it as before. */
  function followClock(input) {
    const apply = () => {
      const type = state.style && state.style.use_24_hour === false ? 'time' : 'text';
      if (input.type === type) return;
      const value = input.value;
      input.type = type;
      const text = { inputmode: 'numeric', pattern: '([01]?[0-9]|2[0-3]):[0-5][0-9]', placeholder: '00:00', maxlength: '5', size: '5', autocomplete: 'off' };
      Object.keys(text).forEach((k) => { if (type === 'text') input.setAttribute(k, text[k]); else input.removeAttribute(k); });
      input.value = value;
      input.dataset.clock = type === 'text' ? '24' : '12';
    };
    on('style', apply);
    apply();
  }

  Object.assign(NC, { nodeEpoch, nodeWall, display, ampm, clockOf, when, dayOf, pad, followClock });
})();
