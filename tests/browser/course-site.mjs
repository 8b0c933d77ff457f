// The course site stand-in (fixtures/course/: lesson.html, its language picker, figure system and
// lesson script, in our own code) served with the built course bundle (dist/course/, `make
// course-bundle`) from two local origins, as a course author would try it:
// - the course's origin serves the stand-in with the bundle copied beside lesson.html (the
//   normal case: the course's pull request vendors it), and sends no CSP, as the course does;
// - the lab's origin serves dist/course/ alone through scripts/serve.mjs, and lesson-cross.html
//   on the course's origin loads figures-dualpipe.js from there (the bundle on another origin).
import { cp, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before } from 'node:test';
import { createServer } from '../../scripts/serve.mjs';
import { launchChromium } from '../../scripts/chromium.mjs';
import { REPO } from './helpers.mjs';

export const COURSE_BUNDLE = path.join(REPO, 'dist/course');
const FIXTURE = path.join(REPO, 'tests/browser/fixtures/course');
const SCRIPT_TAG = '<script src="figures-dualpipe.js?v=20260101a"></script>';

/** Listens on an OS-chosen port of 127.0.0.1; resolves to {url, close()}. */
function listen(server) {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({
      url: `http://127.0.0.1:${server.address().port}/`,
      close: () => new Promise((done) => { server.closeAllConnections(); server.close(done); }),
    }));
  });
}

/** Starts both origins; resolves to {course, lab, stop()} (course and lab: base URLs). */
export async function startCourseSites() {
  try {
    await stat(path.join(COURSE_BUNDLE, 'figures-dualpipe.js'));
  } catch {
    throw new Error('dist/course/ is missing: run `make course-bundle` first');
  }
  const root = await mkdtemp(path.join(os.tmpdir(), 'dpl-course-'));
  await cp(FIXTURE, root, { recursive: true });
  await cp(COURSE_BUNDLE, root, { recursive: true });
  const lab = await listen(createServer(COURSE_BUNDLE));
  const lesson = await readFile(path.join(FIXTURE, 'lesson.html'), 'utf8');
  if (!lesson.includes(SCRIPT_TAG)) throw new Error(`fixtures/course/lesson.html lacks ${SCRIPT_TAG}`);
  await writeFile(path.join(root, 'lesson-cross.html'), lesson.replace(SCRIPT_TAG, SCRIPT_TAG.replace('src="', `src="${lab.url}`)));
  const course = await listen(createServer(root, { security: {} }));
  return {
    course: course.url,
    lab: lab.url,
    async stop() {
      await Promise.all([course.close(), lab.close()]);
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** before/after hooks for a test file: both origins and one Chromium; the returned object fills in. */
export function useCourseSites() {
  const sites = {};
  before(async () => {
    Object.assign(sites, await startCourseSites());
    sites.browser = await launchChromium();
  });
  after(async () => {
    await sites.browser?.close();
    await sites.stop?.();
  });
  return sites;
}
