// Missive's game page. Everything about the rules (legal moves, notation, the
// end of the game) comes from the server; this script only draws what it is
// given and sends what the player picks. Copyright the Missive authors; AGPL-3.0.
'use strict';
(() => {
  const $ = (id) => document.getElementById(id);
  const NS = 'http://www.w3.org/2000/svg';
  const token = new URLSearchParams(location.search).get('t') || '';
  const gameID = decodeURIComponent(location.pathname.split('/')[2] || '');
  const C = 10; // a cell, in the board's units
  const M = 5; // the margin that carries the coordinates

  let view = null; // the game as the server shows it to this link
  let cur = 0; // the position shown: 0 the start, i after step i
  let turned = false; // the viewer turned the board
  let sel = null; // the square picked for a move
  let pending = null; // the move waiting for confirmation
  let an = null; // analysis: {ply, node, board, legal, from, to}
  let doc = { v: 1, nodes: [], notes: {} }; // the player's analysis
  let docLoaded = false;
  // The page's sentences in its language (the server writes them into the page).
  const texts = JSON.parse(($('texts') || {}).textContent || '{}');
  const lang = document.documentElement.lang || 'en';
  // tx returns the sentence key with each {name} of vals filled in.
  function tx(key, vals) {
    let s = texts[key] || key;
    for (const k in vals || {}) s = s.split(`{${k}}`).join(vals[k]);
    return s;
  }
  // num writes an evaluation with two decimals, with the page language's decimal sign.
  function num(x) {
    const s = x.toFixed(2);
    return lang === 'en' ? s : s.replace('.', ',');
  }

  function url(path) {
    const sep = path.includes('?') ? '&' : '?';
    return `/api/g/${encodeURIComponent(gameID)}${path}${sep}t=${encodeURIComponent(token)}&lang=${encodeURIComponent(lang)}`;
  }

  async function call(path, opts) {
    const res = await fetch(url(path), opts);
    let body = null;
    try { body = await res.json(); } catch (e) { body = null; }
    if (!res.ok) {
      const msg = (body && (body.error || body.text)) || tx('js.status', { status: res.status });
      const err = new Error(msg);
      err.body = body;
      throw err;
    }
    return body;
  }

  function say(text, kind) {
    const m = $('message');
    m.textContent = text || '';
    m.className = kind || '';
  }

  // Squares are named as in the rules: file letter, rank number, a1 first.
  function sqName(i) {
    const f = i % view.files;
    const r = Math.floor(i / view.files);
    return String.fromCharCode(97 + f) + (r + 1);
  }
  function sqIndex(name) {
    return (parseInt(name.slice(1), 10) - 1) * view.files + (name.charCodeAt(0) - 97);
  }
  // footprint returns the squares of Gess's 3x3 footprint centred on name.
  function footprint(name) {
    const c = sqIndex(name);
    const f0 = c % view.files;
    const r0 = Math.floor(c / view.files);
    const out = [];
    for (let df = -1; df <= 1; df++) {
      for (let dr = -1; dr <= 1; dr++) {
        const f = f0 + df;
        const r = r0 + dr;
        if (f >= 0 && r >= 0 && f < view.files && r < view.ranks) out.push(r * view.files + f);
      }
    }
    return out;
  }

  function node(tag, attrs, parent) {
    const e = document.createElementNS(NS, tag);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // shown returns what the board shows now: the position, its last move, and the
  // moves that may be made on it.
  function shown() {
    if (an) return { board: an.board, last: an.from ? { from: an.from, to: an.to } : lastOf(an.ply), legal: an.legal, analysis: true };
    const atEnd = cur === view.steps.length;
    let board = cur === 0 ? view.start : view.steps[cur - 1].board;
    if (atEnd && view.pending) board = view.pending;
    return { board, last: lastOf(cur), legal: atEnd ? (view.legal || []) : [], analysis: false };
  }
  function lastOf(i) {
    if (i === 0 || (an && an.node >= 0)) return null;
    const st = view.steps[i - 1];
    return st.from || st.to ? { from: st.from, to: st.to } : null;
  }

  function draw() {
    const s = shown();
    const p = view.palette;
    const F = view.files;
    const R = view.ranks;
    const stones = view.look.stones;
    const flip = view.flipped !== turned;
    const W = F * C + 2 * M;
    const H = R * C + 2 * M;
    const svg = node('svg', { viewBox: `0 0 ${W} ${H}`, 'aria-hidden': 'true', focusable: 'false' });
    node('rect', { x: 0, y: 0, width: W, height: H, fill: stones ? p.GoRing : p.Frame }, svg);
    const at = (i) => {
      const f = i % F;
      const r = Math.floor(i / F);
      return [M + (flip ? F - 1 - f : f) * C, M + (flip ? r : R - 1 - r) * C];
    };
    if (stones) {
      const fr = view.look.frame;
      node('rect', { x: M + fr * C, y: M + fr * C, width: (F - 2 * fr) * C, height: (R - 2 * fr) * C, fill: p.GoBoard }, svg);
      for (let k = fr; k < F - fr; k++) {
        const x = M + k * C + C / 2;
        node('line', { x1: x, y1: M + fr * C + C / 2, x2: x, y2: M + (R - fr) * C - C / 2, stroke: p.GoLine, 'stroke-width': 0.3 }, svg);
      }
      for (let k = fr; k < R - fr; k++) {
        const y = M + k * C + C / 2;
        node('line', { x1: M + fr * C + C / 2, y1: y, x2: M + (F - fr) * C - C / 2, y2: y, stroke: p.GoLine, 'stroke-width': 0.3 }, svg);
      }
    }
    const marks = new Set();
    if (s.last) {
      for (const q of [s.last.from, s.last.to]) {
        if (!q) continue;
        if (stones) footprint(q).forEach((i) => marks.add(i));
        else marks.add(sqIndex(q));
      }
    }
    // Gess: each ring's 3x3 band, under its stones, as the pictures draw it.
    for (const side of ['white', 'black']) {
      const col = side === 'white' ? p.RingWhite : p.RingBlack;
      for (const q of (s.board.rings && s.board.rings[side]) || []) {
        const [cx, cy] = at(sqIndex(q));
        node('rect', { x: cx - C + 0.8, y: cy - C + 0.8, width: 3 * C - 1.6, height: 3 * C - 1.6, rx: 6, fill: col, 'fill-opacity': 0.35, stroke: col, 'stroke-width': 1.2, class: 'ring' }, svg);
        node('circle', { cx: cx + C / 2, cy: cy + C / 2, r: C * 0.22, fill: 'none', stroke: col, 'stroke-width': 1 }, svg);
      }
    }
    const { from, to } = choices(s.legal);
    for (let i = 0; i < F * R; i++) {
      const ch = s.board.cells[i];
      if (ch === ' ') continue;
      const [x, y] = at(i);
      const name = sqName(i);
      if (!stones) {
        const dark = ((i % F) + Math.floor(i / F)) % 2 === 0;
        if (ch === '#') {
          node('rect', { x, y, width: C, height: C, fill: p.Block, stroke: p.BlockEdge, 'stroke-width': 0.5 }, svg);
          node('path', { d: `M${x + 2} ${y + 8}L${x + 8} ${y + 2}M${x + 2} ${y + 4}L${x + 4} ${y + 2}M${x + 6} ${y + 8}L${x + 8} ${y + 6}`, stroke: p.BlockEdge, 'stroke-width': 0.6 }, svg);
        } else {
          node('rect', { x, y, width: C, height: C, fill: dark ? p.Dark : p.Light }, svg);
        }
      }
      if (marks.has(i)) node('rect', { x, y, width: C, height: C, fill: stones ? p.Footprint : p.LastMove }, svg);
      if (s.board.check === name) node('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.46, fill: p.Check, 'fill-opacity': 0.6 }, svg);
      if (ch !== '.' && ch !== '#') {
        const side = ch === ch.toUpperCase() ? 'w' : 'b';
        node('use', { href: `/assets/pieces.svg#${side}${ch.toUpperCase()}`, x, y, width: C, height: C }, svg);
      }
      if (sel === name) node('rect', { x: x + 0.4, y: y + 0.4, width: C - 0.8, height: C - 0.8, fill: 'none', stroke: p.Arrow, 'stroke-width': 0.8 }, svg);
      if (to.has(name)) node('circle', { cx: x + C / 2, cy: y + C / 2, r: C * 0.17, fill: p.Arrow, class: 'target' }, svg);
      const hit = node('rect', { x, y, width: C, height: C, fill: 'transparent', class: 'cell', 'data-sq': name }, svg);
      if (from.has(name) || to.has(name)) hit.classList.add('can');
    }
    const label = stones ? p.GoLine : p.Label;
    for (let f = 0; f < F; f++) {
      const x = M + (flip ? F - 1 - f : f) * C + C / 2;
      const t = node('text', { x, y: H - 1.2, 'font-size': 3, 'text-anchor': 'middle', fill: label, 'font-family': 'sans-serif' }, svg);
      t.textContent = String.fromCharCode(97 + f);
    }
    for (let r = 0; r < R; r++) {
      const y = M + (flip ? r : R - 1 - r) * C + C / 2 + 1.1;
      const t = node('text', { x: M / 2, y, 'font-size': 3, 'text-anchor': 'middle', fill: label, 'font-family': 'sans-serif' }, svg);
      t.textContent = String(r + 1);
    }
    $('board').replaceChildren(svg);
    $('board').setAttribute('aria-label', describe(s));
    $('boardtext').textContent = asText(s.board, flip);
  }

  // choices returns the squares that may be clicked: the pieces that can move (or
  // the cells of a placement) and, once one is picked, its targets.
  function choices(legal) {
    const from = new Set();
    const to = new Set();
    for (const m of legal) {
      if (!m.from) to.add(m.to);
      else if (sel === null) from.add(m.from);
      else if (m.from === sel) to.add(m.to);
    }
    if (sel !== null) for (const m of legal) if (m.from) from.add(m.from);
    return { from, to };
  }

  function describe(s) {
    const side = s.board.turn === 'white' ? 'white' : 'black';
    let where = tx('js.start');
    if (s.analysis) where = an.node >= 0 ? tx('js.analysisAfter', { line: lineText(an.node) }) : tx('js.analysisFrom', { place: placeName(an.ply) });
    else if (cur > 0) where = tx('js.after', { move: moveText(cur) });
    let text = `${view.name}. ${where}. `;
    text += s.board.over ? `${s.board.over}.` : tx(`js.tomove.${side}${s.board.check ? '.check' : ''}`);
    return text + ' ' + tx('js.follows');
  }

  function asText(board, flip) {
    const rows = [];
    for (let k = 0; k < view.ranks; k++) {
      const r = flip ? k : view.ranks - 1 - k;
      let line = String(r + 1).padStart(2, ' ') + ' ';
      for (let j = 0; j < view.files; j++) {
        const f = flip ? view.files - 1 - j : j;
        line += board.cells[r * view.files + f] + ' ';
      }
      rows.push(line.trimEnd());
    }
    let files = '   ';
    for (let j = 0; j < view.files; j++) files += String.fromCharCode(97 + (flip ? view.files - 1 - j : j)) + ' ';
    rows.push(files.trimEnd());
    return rows.join('\n') + '\n' + tx('js.legend');
  }

  function moveText(i) {
    const st = view.steps[i - 1];
    if (st.round) return tx('js.placement', { round: st.round.join(', ') });
    return (st.num || '') + ' ' + st.san;
  }
  function placeName(ply) { return ply === 0 ? tx('js.thestart') : moveText(ply); }

  function seats() {
    const flip = view.flipped !== turned;
    const home = view.look.home;
    const other = home === 'white' ? 'black' : 'white';
    const bottom = flip ? other : home;
    const top = bottom === 'white' ? 'black' : 'white';
    const b = shown().board;
    const put = (el, side) => {
      const span = document.createElement('span');
      span.textContent = tx(`js.seat.${side}${view.you === side ? '.you' : ''}`, { name: view.players[side === 'white' ? 0 : 1] });
      if (view.active && b.turn === side && !b.over) span.className = 'turn';
      el.replaceChildren(span);
    };
    put($('top'), top);
    put($('bottom'), bottom);
  }

  function moveList() {
    const ol = $('moves');
    const items = [];
    const start = document.createElement('li');
    start.appendChild(stepButton(0, tx('js.list.start')));
    items.push(start);
    view.steps.forEach((st, k) => {
      const li = document.createElement('li');
      if (st.round) {
        li.className = 'round';
        li.appendChild(stepButton(k + 1, tx('js.list.placement', { round: st.round.join(', ') })));
      } else {
        if (st.num) {
          const n = document.createElement('span');
          n.className = 'num';
          n.textContent = st.num;
          li.appendChild(n);
        }
        li.appendChild(stepButton(k + 1, st.san));
      }
      items.push(li);
    });
    ol.replaceChildren(...items);
  }
  function stepButton(i, text) {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = text;
    b.dataset.ply = String(i);
    if (i === cur && !an) b.setAttribute('aria-current', 'true');
    if (doc.notes[String(i)]) b.title = doc.notes[String(i)];
    return b;
  }

  function fields() {
    const dl = $('fields');
    const out = [];
    for (const f of view.fields || []) {
      const dt = document.createElement('dt');
      dt.textContent = f.name;
      const dd = document.createElement('dd');
      dd.textContent = f.value.replace(/\*\*/g, '');
      out.push(dt, dd);
    }
    dl.replaceChildren(...out);
  }

  function render() {
    $('title').textContent = view.title;
    document.title = view.title;
    $('status').textContent = view.status.replace(/\*\*/g, '') +
      (view.kind === 'player' ? '' : tx('js.viewing'));
    fields();
    seats();
    draw();
    moveList();
    controls();
    notes();
    tree();
    graph();
  }

  function controls() {
    const n = view.steps.length;
    $('first').disabled = !an && cur === 0;
    $('prev').disabled = !an && cur === 0;
    $('next').disabled = an ? !firstChild() : cur === n;
    $('last').disabled = !an && cur === n;
    const ply = an ? an.ply : cur;
    $('analyse').disabled = !!an || view.analysis_from < 0 || ply < view.analysis_from;
    $('analysis').hidden = !an;
    $('eval').hidden = !view.hints;
    const hide = view.kind !== 'player';
    $('notes').hidden = hide;
    const confirmShown = pending !== null;
    $('confirm').hidden = !confirmShown;
    $('typed').hidden = !shown().legal.length;
  }

  function notes() {
    if (view.kind !== 'player') return;
    const ta = $('note');
    if (document.activeElement === ta) return;
    if (an && an.node >= 0) {
      ta.value = doc.nodes[an.node].n || '';
      $('note-label').textContent = tx('js.note', { what: lineText(an.node) });
    } else {
      const key = String(an ? an.ply : cur);
      ta.value = doc.notes[key] || '';
      $('note-label').textContent = tx('js.note', { what: placeName(an ? an.ply : cur) });
    }
  }

  // The analysis: nodes branch from a position of the game (p = -1, at) or from
  // another node (p).
  function pathOf(k) {
    const out = [];
    for (let i = k; i >= 0; i = doc.nodes[i].p) out.unshift(i);
    return out;
  }
  function lineText(k) { return pathOf(k).map((i) => doc.nodes[i].s || doc.nodes[i].m).join(' '); }
  function children(p, at) {
    const out = [];
    doc.nodes.forEach((n, i) => { if (n.p === p && (p >= 0 || (n.at || 0) === at)) out.push(i); });
    return out;
  }
  function firstChild() { return an ? children(an.node, an.ply)[0] : undefined; }

  function tree() {
    const box = $('tree');
    if (!an) { box.replaceChildren(); return; }
    const roots = new Map();
    doc.nodes.forEach((n, i) => { if (n.p === -1) { const a = n.at || 0; if (!roots.has(a)) roots.set(a, []); roots.get(a).push(i); } });
    const ul = document.createElement('ul');
    const keys = [...roots.keys()].sort((a, b) => a - b);
    for (const a of keys) {
      const li = document.createElement('li');
      const head = document.createElement('button');
      head.type = 'button';
      head.textContent = tx('js.from', { place: placeName(a) });
      head.dataset.an = `${a}:-1`;
      if (an.node === -1 && an.ply === a) head.setAttribute('aria-current', 'true');
      li.appendChild(head);
      li.appendChild(branch(roots.get(a), a));
      ul.appendChild(li);
    }
    if (!roots.has(an.ply) && an.node === -1) {
      const li = document.createElement('li');
      li.textContent = tx('js.fromMove', { place: placeName(an.ply) });
      ul.appendChild(li);
    }
    box.replaceChildren(ul);
    $('an-where').textContent = an.node >= 0 ? lineText(an.node) : tx('js.from', { place: placeName(an.ply) });
  }
  function branch(ids, a) {
    const ul = document.createElement('ul');
    for (const i of ids) {
      const li = document.createElement('li');
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = doc.nodes[i].s || doc.nodes[i].m;
      b.dataset.an = `${a}:${i}`;
      if (doc.nodes[i].n) b.classList.add('has-note');
      if (an.node === i) b.setAttribute('aria-current', 'true');
      li.appendChild(b);
      const kids = children(i, a);
      if (kids.length) li.appendChild(branch(kids, a));
      ul.appendChild(li);
    }
    return ul;
  }

  async function goAnalysis(ply, k) {
    const line = k >= 0 ? pathOf(k).map((i) => doc.nodes[i].m).join(',') : '';
    const res = await call(`/node?ply=${ply}&line=${encodeURIComponent(line)}`);
    an = { ply, node: k, board: res.board, legal: res.legal, from: res.from, to: res.to };
    sel = null;
    pending = null;
    render();
  }

  async function analysisMove(m) {
    let k = children(an.node, an.ply).find((i) => doc.nodes[i].m === m.uci);
    if (k === undefined) {
      const n = { p: an.node, m: m.uci, s: m.san };
      if (an.node === -1) n.at = an.ply;
      doc.nodes.push(n);
      k = doc.nodes.length - 1;
      await goAnalysis(an.ply, k);
      await save(false);
      return;
    }
    await goAnalysis(an.ply, k);
  }

  async function save(loud) {
    if (view.kind !== 'player') return;
    try {
      const res = await call('/analysis', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(doc) });
      $('saved').textContent = loud ? res.text : tx('js.saved');
    } catch (e) {
      $('saved').textContent = '';
      say(e.message, 'bad');
    }
  }

  async function loadAnalysis() {
    if (view.kind !== 'player' || docLoaded) return;
    try {
      const d = await call('/analysis');
      doc = { v: 1, nodes: d.nodes || [], notes: d.notes || {} };
      docLoaded = true;
    } catch (e) {
      say(e.message, 'bad');
    }
  }

  // click handles a click on the board's square name.
  function click(name) {
    const s = shown();
    if (!s.legal.length) return;
    const drops = s.legal.filter((m) => !m.from && m.to === name);
    if (drops.length) return choose(drops);
    if (sel !== null) {
      const ms = s.legal.filter((m) => m.from === sel && m.to === name);
      if (ms.length) return choose(ms);
    }
    sel = s.legal.some((m) => m.from === name) && sel !== name ? name : null;
    pending = null;
    draw();
  }

  // choose asks for the promotion piece when several moves fit, then plays the
  // analysis move or asks to confirm the game move.
  function choose(ms) {
    if (ms.length > 1) {
      const box = $('promo');
      box.replaceChildren(...ms.map((m) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.textContent = m.san;
        b.addEventListener('click', () => { box.hidden = true; choose([m]); });
        return b;
      }));
      box.hidden = false;
      return;
    }
    const m = ms[0];
    sel = null;
    if (shown().analysis) { analysisMove(m).catch((e) => say(e.message, 'bad')); return; }
    pending = m;
    $('confirm-text').textContent = m.from ? tx('js.play', { move: m.san }) : tx('js.place', { piece: pieceName(m.drop), cell: m.to });
    draw();
    controls();
    $('confirm-yes').focus();
  }
  function pieceName(letter) {
    return texts[`piece.${letter}`] || texts.piece || 'piece';
  }

  async function play(text) {
    say(tx('js.sending'));
    try {
      const id = Math.random().toString(36).slice(2) + Date.now().toString(36);
      const res = await call('/move', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ move: text, id }) });
      say(res.text.replace(/\*\*/g, ''), 'good');
    } catch (e) {
      say(e.message.replace(/\*\*/g, ''), 'bad');
    }
    pending = null;
    await refresh(true);
  }

  async function refresh(toEnd) {
    const wasEnd = view === null || cur === view.steps.length;
    view = await call('');
    await loadAnalysis();
    if (toEnd || wasEnd || cur > view.steps.length) cur = view.steps.length;
    $('pgn').href = url('/pgn');
    $('gif').href = url('/gif');
    render();
  }

  function step(to) {
    if (an) return;
    cur = Math.max(0, Math.min(view.steps.length, to));
    sel = null;
    pending = null;
    render();
  }

  function back() {
    if (!an) return step(cur - 1);
    if (an.node === -1) return leave();
    const p = doc.nodes[an.node].p;
    goAnalysis(an.ply, p).catch((e) => say(e.message, 'bad'));
  }
  function forward() {
    if (!an) return step(cur + 1);
    const k = firstChild();
    if (k !== undefined) goAnalysis(an.ply, k).catch((e) => say(e.message, 'bad'));
  }
  function leave() {
    if (!an) return;
    cur = an.ply;
    an = null;
    sel = null;
    $('eval-out').textContent = '';
    render();
  }

  // typed plays or analyses a move typed as text: the server reads it (any
  // notation the rules accept) and says why when it cannot.
  async function typed(text) {
    text = text.trim();
    if (!text) return;
    if (shown().analysis) {
      const base = an.node >= 0 ? pathOf(an.node).map((i) => doc.nodes[i].m) : [];
      try {
        const res = await call(`/node?ply=${an.ply}&line=${encodeURIComponent(base.concat([text]).join(','))}`);
        const k = res.uci.length - 1;
        await analysisMove({ uci: res.uci[k], san: res.san[k] });
        $('typed-move').value = '';
      } catch (e) {
        say(e.message, 'bad');
      }
      return;
    }
    pending = { uci: text, san: text, from: view.placing ? '' : 'typed', to: text, drop: '' };
    $('confirm-text').textContent = view.placing ? tx('js.choose', { cell: text }) : tx('js.play', { move: text });
    $('typed-move').value = '';
    controls();
    $('confirm-yes').focus();
  }

  // graph draws the review's scores, one point per move.
  function graph() {
    const pts = view.review || [];
    $('review').hidden = !pts.length;
    if (!pts.length) return;
    const W = 200;
    const H = 60;
    const n = Math.max(1, view.steps.length);
    const x = (ply) => (ply / n) * W;
    const y = (e) => H / 2 - (e / 1000) * (H / 2 - 2);
    const svg = node('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': view.review_label || '' });
    node('line', { x1: 0, y1: H / 2, x2: W, y2: H / 2, stroke: '#b9ae9f', 'stroke-width': 0.5 }, svg);
    node('polyline', { points: pts.map((p) => `${x(p.ply)},${y(p.eval)}`).join(' '), fill: 'none', stroke: '#2f6f3a', 'stroke-width': 0.8 }, svg);
    const bad = { mistake: '#d08a00', blunder: '#a4201b', inaccuracy: '#c9b200' };
    for (const p of pts) {
      const c = node('circle', { cx: x(p.ply), cy: y(p.eval), r: p.ply === cur ? 2.2 : 1.4, fill: bad[p.class] || '#2f6f3a', 'data-ply': p.ply }, svg);
      const t = node('title', {}, c);
      t.textContent = `${moveText(p.ply)}: ${texts[`js.class.${p.class}`] || p.class}, ${num(p.eval / 100)}`;
    }
    $('graph').replaceChildren(svg);
  }

  function wire() {
    $('typed').addEventListener('submit', (e) => { e.preventDefault(); typed($('typed-move').value); });
    $('graph').addEventListener('click', (e) => {
      const c = e.target.closest('[data-ply]');
      if (c) { an = null; step(parseInt(c.getAttribute('data-ply'), 10)); }
    });
    $('board').addEventListener('click', (e) => {
      const t = e.target.closest('[data-sq]');
      if (t) click(t.dataset.sq);
    });
    // A drag from a piece to a square is its move: the press picks the piece,
    // the release (over another square) its target. The browser sends no click
    // then, the two squares being different elements.
    let down = null;
    $('board').addEventListener('pointerdown', (e) => {
      const t = e.target.closest('[data-sq]');
      down = t ? t.dataset.sq : null;
    });
    $('board').addEventListener('pointerup', (e) => {
      const el = document.elementFromPoint(e.clientX, e.clientY);
      const t = el && el.closest('#board [data-sq]');
      const from = down;
      down = null;
      if (!t || !from || t.dataset.sq === from || !shown().legal.some((m) => m.from === from)) return;
      sel = from;
      click(t.dataset.sq);
    });
    $('first').addEventListener('click', () => (an ? goAnalysis(an.ply, -1) : step(0)));
    $('prev').addEventListener('click', back);
    $('next').addEventListener('click', forward);
    $('last').addEventListener('click', () => (an ? leave() : step(view.steps.length)));
    $('flip').addEventListener('click', () => { turned = !turned; render(); });
    $('analyse').addEventListener('click', () => goAnalysis(cur, -1).catch((e) => say(e.message, 'bad')));
    $('back').addEventListener('click', leave);
    $('confirm-yes').addEventListener('click', () => { if (pending) play(pending.uci); });
    $('confirm-no').addEventListener('click', () => { pending = null; say(''); draw(); controls(); });
    $('moves').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-ply]');
      if (b) { an = null; step(parseInt(b.dataset.ply, 10)); }
    });
    $('tree').addEventListener('click', (e) => {
      const b = e.target.closest('button[data-an]');
      if (!b) return;
      const [a, k] = b.dataset.an.split(':').map((x) => parseInt(x, 10));
      goAnalysis(a, k).catch((er) => say(er.message, 'bad'));
    });
    $('save').addEventListener('click', () => {
      const text = $('note').value;
      if (an && an.node >= 0) doc.nodes[an.node].n = text;
      else doc.notes[String(an ? an.ply : cur)] = text;
      if (!text && !(an && an.node >= 0)) delete doc.notes[String(an ? an.ply : cur)];
      save(true).then(() => { moveList(); tree(); });
    });
    $('eval').addEventListener('click', async () => {
      $('eval-out').textContent = tx('js.thinking');
      const ply = an ? an.ply : cur;
      const line = an && an.node >= 0 ? pathOf(an.node).map((i) => doc.nodes[i].m).join(',') : '';
      try {
        const r = await call('/eval', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ ply, line }) });
        $('eval-out').textContent = tx('js.best', { move: r.best }) + (r.eval ? ' · ' + r.eval : '') + (r.line && r.line.length > 1 ? ' · ' + tx('js.line', { moves: r.line.join(' ') }) : '');
      } catch (e) {
        $('eval-out').textContent = e.message;
      }
    });
    document.addEventListener('keydown', (e) => {
      if (e.target.closest('textarea, input') || e.altKey || e.ctrlKey || e.metaKey) return;
      const keys = {
        ArrowLeft: back, ArrowRight: forward,
        Home: () => (an ? goAnalysis(an.ply, -1) : step(0)), End: () => (an ? leave() : step(view.steps.length)),
        f: () => { turned = !turned; render(); }, Escape: () => { sel = null; pending = null; leave(); render(); },
        a: () => { if (!$('analyse').disabled) $('analyse').click(); },
      };
      if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
    });
  }

  function live() {
    const es = new EventSource(url('/events'));
    es.addEventListener('changed', () => {
      const before = view.steps.length;
      refresh(false).then(() => {
        if (view.steps.length > before && !an) say(tx('js.new', { move: moveText(view.steps.length) }), 'good');
      }).catch((e) => say(e.message, 'bad'));
    });
  }

  wire();
  refresh(true).then(live).catch((e) => {
    $('status').textContent = e.message;
    $('title').textContent = 'Missive';
  });
})();
