/* NoiseClock web app: the core every page shares, after strings.js:
   - a state store (NC.put, NC.on), fed by link.js from GET /api/state and the event stream;
   - i18n: English and Korean, from node.locale (the words in strings.js);
   - the small DOM helpers of every page script.
   clock.js and link.js follow on every page; forms.js, topbar.js and look.js where a page needs them. */
'use strict';

const NC = (() => {
  const state = {};
  const handlers = {};
  const STR = AppStrings;

  function lang() {
    const l = (state.node && state.node.locale) || document.documentElement.lang || 'en';
    return /^ko/i.test(l) ? 'ko' : 'en';
  }
  function t(key, vars) {
    let s = STR[lang()][key];
    if (s === undefined) s = STR.en[key];
    if (s === undefined) return key;
    if (vars && typeof s === 'string') for (const k in vars) s = s.replace('{' + k + '}', vars[k]);
    return s;
  }
  /* Every element with data-i18n="key" gets t(key) as its text; data-i18n-aria for aria-label. */
  function translate(root) {
    document.documentElement.lang = lang();
    (root || document).querySelectorAll('[data-i18n]').forEach((el) => { el.textContent = t(el.dataset.i18n); });
    (root || document).querySelectorAll('[data-i18n-aria]').forEach((el) => { el.setAttribute('aria-label', t(el.dataset.i18nAria)); });
    (root || document).querySelectorAll('[data-i18n-ph]').forEach((el) => { el.placeholder = t(el.dataset.i18nPh); });
  }
  /* A catalog sound's (or a default timer preset's) name in the page's language while it is the node's
     unchanged default; any other name is the owner's and shown as it is. */
  const named = (prefix, id, name) => (STR.en[prefix + id] !== undefined && STR.en[prefix + id] === name ? t(prefix + id) : name);
  const soundName = (x) => named('snd_', x.id, x.name);
  const presetLabel = (p) => named('preset_', p.id, p.label);
  /* The string tables of the pages' own scripts (NC.words(name, table)): the test of Korean reads them all. */
  const tables = { app: STR };
  function words(name, table) { tables[name] = table; return table; }
  /* A message in a person's words with what to do (a link), and the technical detail behind "Details". */
  function detailed(box, text, link, detail) {
    box.append(el('span', {}, text, link ? [' ', el('a', { class: 'fix', href: link[0], text: link[1] })] : []));
    if (detail) box.append(el('details', { class: 'tech' }, el('summary', { text: t('details') }), el('code', { 'data-nc': 'detail', text: detail })));
    return box;
  }

  /* ---- the state store: a topic's payload kept and handed to its handlers ('*' hears all) ---- */
  function on(topic, fn) { (handlers[topic] = handlers[topic] || []).push(fn); }
  function emit(topic, payload) {
    (handlers[topic] || []).forEach((fn) => fn(payload, topic));
    (handlers['*'] || []).forEach((fn) => fn(payload, topic));
  }
  function put(topic, payload) {
    state[topic] = payload;
    if (topic === 'node') translate();
    emit(topic, payload);
  }

  /* ---- small helpers for pages ---- */
  function $(sel, root) { return (root || document).querySelector(sel); }
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) {
      const v = attrs[k];
      if (v === null || v === undefined || v === false) continue;
      if (k === 'text') e.textContent = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : v);
    }
    children.flat().forEach((c) => { if (c !== null && c !== undefined && c !== false) e.append(c); });
    return e;
  }
  /* Shows a command's refusal next to a control (or clears it). */
  function report(node, answer) {
    if (!node) return;
    node.textContent = '';
    if (answer && !answer.ok) refusal(node, answer.error);
    node.hidden = !node.textContent;
  }
  /* A refusal in the page's words, the node's own behind "Details" (replies.js); its message alone without it. */
  function refusal(box, error) {
    if (NC.explain) return NC.explain(box, error);
    box.textContent = (error && (error.message || error.code)) || 'error';
    return box;
  }

  return { state, on, emit, put, soundName, presetLabel, words, tables, detailed, t, translate, lang, $, el, report, refusal };
})();
