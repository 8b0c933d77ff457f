// Hindi for the simulator's validation messages that a learner meets while editing the form.
// Core speaks one language (English: the same text for the CLI, the JSON API and the tests);
// this table re-says the common messages on the Hindi page, keeping every number and name.
// A message it does not know stays in English. tests/browser/lib-sim-messages.test.mjs runs
// core on bad configs and checks each of these is matched.
const HINDI = [
  [/^ranks must be an even integer >= 2 for (\S+) \(got (.+)\)$/, (m) => `${m[1]} के लिए रैंक 2 या उससे बड़ी सम संख्या होनी चाहिए (मिला ${m[2]})`],
  [/^microbatches must be even for (\S+) \(got (.+)\)$/, (m) => `${m[1]} के लिए माइक्रो-बैच सम संख्या होनी चाहिए (मिला ${m[2]})`],
  [/^microbatches must be >= 2 \* ranks = (\d+) for (\S+) \(got (.+)\)$/, (m) => `${m[2]} के लिए माइक्रो-बैच कम से कम 2 × रैंक = ${m[1]} होने चाहिए (मिला ${m[3]})`],
  [/^microbatches must be a multiple of ranks = (\d+) for (\S+) \(got (.+)\)$/, (m) => `${m[2]} के लिए माइक्रो-बैच रैंक = ${m[1]} का गुणज होने चाहिए (मिला ${m[3]})`],
  [/^(ranks|microbatches) must be an integer in \[1, (\d+)\] \(got (.+)\)$/, (m) => `${NAMES[m[1]]} 1 से ${m[2]} तक का पूर्णांक होना चाहिए (मिला ${m[3]})`],
  [/^(ranks|microbatches) must be an integer \(got (.+)\)$/, (m) => `${NAMES[m[1]]} पूर्णांक होना चाहिए (मिला ${m[2]})`],
  [/^schedule must be one of (.+) \(got (.*)\)$/, (m) => `शेड्यूल इनमें से एक होना चाहिए: ${m[1]} (मिला ${m[2]})`],
  [/^ranks x microbatches is too large: about (\d+) ops for (\S+), above the limit of (\d+)$/, (m) => `रैंक × माइक्रो-बैच बहुत बड़ा है: ${m[2]} के लिए लगभग ${m[1]} ऑप, सीमा ${m[3]} है`],
  [/^costs\.weight must be <= costs\.backward = (\S+) \(got (.+)\)$/, (m) => `W, B = ${m[1]} से बड़ा नहीं हो सकता (मिला ${m[2]})`],
  [/^costs\.([\w.]+) must be a finite number > 0 \(got (.+)\)$/, (m) => `${m[1]} 0 से बड़ी सीमित संख्या होनी चाहिए (मिला ${m[2]})`],
  [/^costs\.([\w.]+) must be a finite number >= 0 \(got (.+)\)$/, (m) => `${m[1]} 0 या उससे बड़ी सीमित संख्या होनी चाहिए (मिला ${m[2]})`],
  [/^costs\.([\w.]+) must be a finite number in \[(\S+), (\S+)\] \(got (.+)\)$/, (m) => `${m[1]} ${m[2]} से ${m[3]} तक की सीमित संख्या होनी चाहिए (मिला ${m[4]})`],
  [/^costs\.([\w.]+) must be an integer in \[(\S+), (\S+)\] \(got (.+)\)$/, (m) => `${m[1]} ${m[2]} से ${m[3]} तक का पूर्णांक होना चाहिए (मिला ${m[4]})`],
  [/^costs\.([\w.]+) must be >= (\S+), the time resolution \(got (.+)\)$/, (m) => `${m[1]} कम से कम ${m[2]} होना चाहिए, समय की सबसे छोटी इकाई (मिला ${m[3]})`],
  [/^costs\.([\w.]+) must be <= (\S+) \(got (.+)\)$/, (m) => `${m[1]} ${m[2]} से बड़ा नहीं हो सकता (मिला ${m[3]})`],
  [/^costs\.([\w.]+) must be a number \(got (.+)\)$/, (m) => `${m[1]} एक संख्या होनी चाहिए (मिला ${m[2]})`],
];
const NAMES = { ranks: 'रैंक', microbatches: 'माइक्रो-बैच' };

/** `message` (from a SimError) in `lang`: Hindi where the table knows it, else unchanged. */
export function simMessage(lang, message) {
  if (lang !== 'hi' || !message) return message;
  for (const [pattern, say] of HINDI) {
    const m = pattern.exec(message);
    if (m) return say(m);
  }
  return message;
}

/** `error` with its message in `lang` (a copy), for errorBox; anything without a message as is. */
export function localizedError(lang, error) {
  if (!error || typeof error.message !== 'string') return error;
  const message = simMessage(lang, error.message);
  return message === error.message ? error : { code: error.code, path: error.path, message };
}
