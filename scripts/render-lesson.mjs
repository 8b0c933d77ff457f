// Renders one lesson's Markdown to the HTML fragment the page's reader loads (views/lesson-reader.js),
// with the lesson extensions kept as placeholders the page fills in with live simulations. Used by
// scripts/build-site.mjs (which writes the fragments into web/generated/lessons/) and by the lesson
// tests, which render exactly what the page will show. Output is deterministic.
//
// Lesson Markdown extensions:
//   ```sim <id>\n{config}\n```  ->  <div class="sim-widget" data-sim-id="id" data-config="{..}"></div>
//     options after the id: compare=<schedule> (a second schedule on the same time axis, with the
//     bubble of each labelled), play (plays once when the lesson opens) and streams (opens with the
//     compute and communication streams drawn; for configs with costs.comm): data-compare,
//     data-autoplay, data-streams
//   ```pairs <id> <sim id>...\n```  ->  <div class="pair-table" data-pairs-id="id" data-sources="a b"></div>
//     a table of one overlapped pair of each named sim run (its costs, its part order): what
//     computation each all-to-all runs under, as core reports it (result comm.ops.FB.hiding);
//     every named sim fence must have costs.comm
//   ```memory <id>\n{request}\n``` -> <div class="memory-widget" data-memory-id="id" data-request="{..}"></div>
//     a memory-model request (pipesim memory's JSON, a comparison with "sides" too): the page
//     draws its table with every assumption and source, and quotes may name it like a sim
//   {{id.field|quoted}}         ->  <span class="sim-number" data-ref="id.field" data-quoted="..">quoted</span>
//   {{time:core}}, {{time:optional}} -> <span class="lesson-time" data-part="core">55</span>: the
//     minutes of the core path and of the optional deep dives, as scripts/lesson-time.mjs counts
//     them (never typed by hand)
//   ## Heading <!-- anchor -->  ->  <h2 id="anchor">Heading</h2>
//   ### Heading <!-- optional --> (or <!-- anchor optional -->): an optional deep dive, off the
//     lesson's core path: the heading gets class "is-optional" (the reader adds the words
//     "optional deep dive" in the page's language) and everything after it up to the next heading
//     of the same or a higher level is wrapped in <div class="deep-dive">. A deep dive holds no
//     other; scripts/lesson-time.mjs counts its words and figures apart from the core path's.
import MarkdownIt from 'markdown-it';

// A path's steps are names or array indices (a memory comparison's `sides.0.extraCopyBytes`).
const SIM_NUMBER = /^\{\{([A-Za-z][\w-]*(?:\.(?:[A-Za-z]\w*|\d+))+)\|([^{}|]*)\}\}/;
// A heading's marker: an anchor id, the word `optional`, or both (`<!-- ship-it optional -->`).
const MARKER = /\s*<!--\s*([a-z0-9 -]*?)\s*-->\s*$/;
const TIME = /^\{\{time:(core|optional)\}\}/;

/** A lesson that cannot be rendered: the message names the file and line. */
export class LessonError extends Error {}

// The markdown-it instance with our extensions. Raw HTML stays off: lessons are Markdown.
function lessonRenderer(lesson) {
  const md = new MarkdownIt({ html: false, linkify: false, typographer: false });
  const escape = md.utils.escapeHtml;
  const escapeSingle = (text) => escape(text).replaceAll('&quot;', '"').replaceAll("'", '&#39;');

  // Anchors and optional deep dives, from each heading's marker comment.
  md.core.ruler.before('inline', 'heading_anchor', (state) => {
    state.tokens.forEach((token, i) => {
      if (token.type !== 'heading_open') return;
      const inline = state.tokens[i + 1];
      const match = inline.content.match(MARKER);
      if (!match) return;
      inline.content = inline.content.slice(0, match.index);
      const words = match[1].split(/\s+/).filter(Boolean);
      const optional = words.includes('optional');
      const ids = words.filter((w) => w !== 'optional');
      const where = `${lesson.source}:${token.map[0] + 1}`;
      if (ids.length > 1) throw new LessonError(`${where}: a heading has one anchor (got "${ids.join(' ')}")`);
      if (optional) {
        token.attrJoin('class', 'is-optional');
        token.meta = { optional: true };
      }
      if (ids.length) {
        token.attrSet('id', ids[0]);
        lesson.sections.push({ id: ids[0], level: Number(token.tag.slice(1)), title: inline.content, ...(optional ? { optional } : {}) });
      }
    });
  });

  // Each optional heading's body, up to the next heading of its level or above, in one wrapper.
  md.core.ruler.after('heading_anchor', 'deep_dive', (state) => {
    const tokens = [];
    let open = 0; // the level of the open deep dive's heading; 0: none
    const close = () => {
      const end = new state.Token('deep_dive_close', 'div', -1);
      end.block = true;
      tokens.push(end);
      open = 0;
    };
    for (let i = 0; i < state.tokens.length; i++) {
      const token = state.tokens[i];
      if (token.type === 'heading_open') {
        const level = Number(token.tag.slice(1));
        if (open && level <= open) close();
        if (token.meta?.optional) {
          if (open) throw new LessonError(`${lesson.source}:${token.map[0] + 1}: an optional deep dive inside another`);
          // The heading, its text and its close, then the wrapper.
          tokens.push(token, state.tokens[i + 1], state.tokens[i + 2]);
          i += 2;
          const wrapper = new state.Token('deep_dive_open', 'div', 1);
          wrapper.attrSet('class', 'deep-dive');
          wrapper.block = true;
          tokens.push(wrapper);
          open = level;
          lesson.deepDives.push({ level, title: state.tokens[i - 1].content });
          continue;
        }
      }
      tokens.push(token);
    }
    if (open) close();
    state.tokens = tokens;
  });

  md.inline.ruler.before('emphasis', 'lesson_time', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x7b /* { */) return false;
    const match = state.src.slice(state.pos).match(TIME);
    if (!match) return false;
    if (!silent) {
      const minutes = lesson.time?.[match[1]];
      if (!Number.isFinite(minutes)) throw new LessonError(`${lesson.source}: {{time:${match[1]}}} but the build gave no time for it`);
      const token = state.push('lesson_time', 'span', 0);
      token.meta = { part: match[1], minutes };
    }
    state.pos += match[0].length;
    return true;
  });
  md.renderer.rules.lesson_time = (tokens, i) => {
    const { part, minutes } = tokens[i].meta;
    return `<span class="lesson-time" data-part="${escape(part)}">${escape(String(minutes))}</span>`;
  };

  md.inline.ruler.before('emphasis', 'sim_number', (state, silent) => {
    if (state.src.charCodeAt(state.pos) !== 0x7b /* { */) return false;
    const match = state.src.slice(state.pos).match(SIM_NUMBER);
    if (!match) return false;
    if (!silent) {
      const token = state.push('sim_number', 'span', 0);
      token.meta = { ref: match[1], quoted: match[2] };
      lesson.numbers.push({ ref: match[1], quoted: match[2] });
    }
    state.pos += match[0].length;
    return true;
  });
  md.renderer.rules.sim_number = (tokens, i) => {
    const { ref, quoted } = tokens[i].meta;
    return `<span class="sim-number" data-ref="${escape(ref)}" data-quoted="${escape(quoted)}">${escape(quoted)}</span>`;
  };

  const defaultFence = md.renderer.rules.fence;
  md.renderer.rules.fence = (tokens, i, options, env, self) => {
    const token = tokens[i];
    const [lang, id, ...rest] = token.info.trim().split(/\s+/);
    if (lang === 'memory') return memoryFence(token, id, rest);
    const where = `${lesson.source}:${token.map[0] + 1}`;
    if (lang === 'pairs') {
      if (!id || !/^[A-Za-z][\w-]*$/.test(id) || !rest.length || rest.some((s) => !/^[A-Za-z][\w-]*$/.test(s))) {
        throw new LessonError(`${where}: a pairs fence needs an id and the sim ids it draws, e.g. \`\`\`pairs fig4 cdp16`);
      }
      if (token.content.trim()) throw new LessonError(`${where}: a pairs fence has no body`);
      lesson.pairs.push({ id, sources: rest, where });
      return `<div class="pair-table" data-pairs-id="${escape(id)}" data-sources="${escape(rest.join(' '))}"></div>\n`;
    }
    if (lang !== 'sim') return defaultFence(tokens, i, options, env, self);
    if (!id || !/^[A-Za-z][\w-]*$/.test(id)) throw new LessonError(`${where}: a sim fence needs one id, e.g. \`\`\`sim dp8`);
    const extra = {};
    for (const option of rest) {
      const compare = /^compare=([\w-]+)$/.exec(option);
      if (compare) extra.compare = compare[1];
      else if (option === 'play') extra.autoplay = '1';
      else if (option === 'streams') extra.streams = '1';
      else throw new LessonError(`${where}: unknown sim option "${option}" (compare=<schedule>, play or streams)`);
    }
    if (Object.hasOwn(lesson.sims, id) || Object.hasOwn(lesson.memories, id)) throw new LessonError(`${where}: sim id "${id}" is used twice`);
    let config;
    try {
      config = JSON.parse(token.content);
    } catch (error) {
      throw new LessonError(`${where}: sim ${id} is not valid JSON: ${error.message}`);
    }
    lesson.sims[id] = config;
    if (extra.compare) lesson.compares[id] = extra.compare;
    const attrs = Object.entries(extra).map(([k, v]) => ` data-${k}="${escape(v)}"`).join('');
    // Single-quoted so the JSON stays readable in the HTML; escape() leaves no raw ' or &.
    return `<div class="sim-widget" data-sim-id="${escape(id)}"${attrs} data-config='${escapeSingle(JSON.stringify(config))}'></div>\n`;
  };
  // A memory-model request: its table is drawn by the page; its id shares the sims' namespace.
  function memoryFence(token, id, rest) {
    const where = `${lesson.source}:${token.map[0] + 1}`;
    if (!id || !/^[A-Za-z][\w-]*$/.test(id)) throw new LessonError(`${where}: a memory fence needs one id, e.g. \`\`\`memory mem`);
    if (rest.length) throw new LessonError(`${where}: a memory fence takes no options (got "${rest.join(' ')}")`);
    if (Object.hasOwn(lesson.sims, id) || Object.hasOwn(lesson.memories, id)) throw new LessonError(`${where}: id "${id}" is used twice`);
    let request;
    try {
      request = JSON.parse(token.content);
    } catch (error) {
      throw new LessonError(`${where}: memory ${id} is not valid JSON: ${error.message}`);
    }
    lesson.memories[id] = request;
    return `<div class="memory-widget" data-memory-id="${escape(id)}" data-request='${escapeSingle(JSON.stringify(request))}'></div>\n`;
  }
  return md;
}


/**
 * The lesson `markdown` rendered: {name, lang, source, title, sections, deepDives, sims, memories,
 * compares, numbers, pairs, html}. `time` is {core, optional}: the whole minutes the page states
 * for {{time:core}} and {{time:optional}} (scripts/lesson-time.mjs). Throws a LessonError naming
 * the file and line of anything the page could not show.
 */
export function renderLesson(markdown, { name, lang = 'en', source, time } = {}) {
  const lesson = { name, lang, source, title: '', sections: [], deepDives: [], sims: {}, memories: {}, compares: {}, numbers: [], pairs: [], time };
  const md = lessonRenderer(lesson);
  const tokens = md.parse(markdown, {});
  const h1 = tokens.findIndex((t) => t.type === 'heading_open' && t.tag === 'h1');
  if (h1 >= 0) lesson.title = tokens[h1 + 1].content;
  const html = md.renderer.render(tokens, md.options, {});
  // A quote the extension did not recognise would reach the learner as raw text.
  const stray = /\{\{[^}]*\}\}/.exec(html.replace(/<code>[\s\S]*?<\/code>/g, ''));
  if (stray) throw new LessonError(`${source}: "${stray[0]}" is not a quote of the form {{id.path|as quoted}} or {{time:core}}`);
  for (const { ref } of lesson.numbers) {
    const id = ref.split('.')[0];
    if (!Object.hasOwn(lesson.sims, id) && !Object.hasOwn(lesson.memories, id)) throw new LessonError(`${source}: {{${ref}|..}} names no sim or memory fence "${id}"`);
  }
  for (const { id, sources, where } of lesson.pairs) {
    for (const s of sources) {
      if (!Object.hasOwn(lesson.sims, s)) throw new LessonError(`${where}: pairs ${id} names no sim fence "${s}"`);
      if (!lesson.sims[s].costs?.comm) throw new LessonError(`${where}: pairs ${id}: sim ${s} has no costs.comm, so no pair to draw`);
    }
  }
  delete lesson.time;
  return { ...lesson, html };
}
