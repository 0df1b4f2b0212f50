// The SQL and row mapping of the course a learner keeps offline: its modules with their bodies and
// the learner's progress, the untimed quizzes' questions without answers, the SCORM packages with
// what each SCO's run-time starts with and their signed manifests (lib/scorm/offline-manifest.ts),
// and the stored files with their sizes (a package's with their hashes). Every statement runs as the
// caller: module_body, quiz_questions_for_learner and offline_course_files check the right.
import type { AnswerDisplay } from '../../../_shared/quiz.ts';
import type { OfflineCourse, OfflineFile, OfflineModule, OfflineQuiz, OfflineScormPackage } from '../../../_shared/offline.ts';
import { initialCmi, type ScormVersion, scoManifestData, scoStatus } from '../../../_shared/scorm-data-model.ts';
import { isoTimestamp } from '../../../_shared/dates.ts';
import type { Config } from '../../lib/config.ts';
import type { Tx } from '../../lib/db.ts';
import { iso, publicUrl, type Row, toLearnerQuestion } from '../../lib/learning.ts';
import { signOfflineManifest } from '../../lib/scorm/offline-manifest.ts';
import { scormContentUrl } from '../../lib/scorm/storage.ts';

/** Everything of the course to keep offline, read in one pipeline (the caller's rights checked first). */
export async function readOfflineCourse(tx: Tx, config: Config, courseId: string, userId: string): Promise<OfflineCourse> {
  const [[course], modules, questions, packages, files] = await Promise.all([
    tx<Row[]>`
      select c.id, c.title, c.title_cy, c.description, c.description_cy, c.service::text as service, c.cover_image,
             c.updated_at, now() as server_now,
             e.id as enrollment_id, e.progress, e.completed,
             (select ct.id from public.certificates ct
               where e.completed and ct.user_id = e.user_id and ct.course_id = c.id and ct.revoked_at is null
               order by ct.cycle desc, ct.issued_at desc limit 1) as certificate_id,
             p.name as learner_name
      from public.courses c
      join public.enrollments e on e.course_id = c.id and e.user_id = ${userId}::uuid
      join public.profiles p on p.id = e.user_id
      where c.id = ${courseId}::uuid`,
    tx<Row[]>`
      select m.id, m.title, m.title_cy, m.kind, m.order_index, m.duration, m.updated_at,
             coalesce(b.content, '') as content, b.content_cy, b.image,
             (u.read_at is not null) as read, coalesce(u.completed, false) as completed,
             coalesce(u.quiz_passed, false) as quiz_passed,
             q.id as quiz_id, q.title as quiz_title, q.title_cy as quiz_title_cy, q.description as quiz_description,
             q.description_cy as quiz_description_cy, q.passing_score, q.time_limit, q.show_correct_answers,
             q.updated_at as quiz_updated_at,
             s.attempts_used, s.max_attempts, s.attempts_remaining, s.next_attempt_at
      from public.course_modules m
      left join lateral private.module_body(m.id) b on true
      left join public.user_module_progress u on u.module_id = m.id and u.user_id = ${userId}::uuid
      left join public.quizzes q on q.module_id = m.id
      left join lateral private.quiz_attempt_status(q.id) s on q.id is not null
      where m.course_id = ${courseId}::uuid
      order by m.order_index, m.created_at, m.id`,
    // The questions of the quizzes that can be answered offline: untimed, and an attempt may start
    // now (online, no question is served beyond the maximum or within the wait either).
    tx<Row[]>`
      select q.id as quiz_id, x.*
      from public.course_modules m
      join public.quizzes q on q.module_id = m.id
      cross join lateral private.quiz_attempt_status(q.id) s
      cross join lateral private.quiz_questions_for_learner(q.id) x
      where m.course_id = ${courseId}::uuid and q.time_limit is null
        and (s.attempts_remaining is null or s.attempts_remaining > 0) and s.next_attempt_at is null`,
    tx<Row[]>`
      select p.module_id, p.version, p.title, p.scos::text as scos, p.storage_prefix, p.min_seconds, p.uploaded_at,
             p.file_hashes::text as file_hashes,
             coalesce((
               select jsonb_object_agg(a.sco_id, jsonb_build_object(
                        'completion', a.completion_status, 'success', a.success_status, 'met', a.met_at is not null,
                        'suspended', a.suspended, 'cmi', a.cmi, 'totalSeconds', a.total_seconds))
               from (select distinct on (a.sco_id) a.*
                     from public.scorm_attempts a
                     where a.module_id = p.module_id and a.user_id = ${userId}::uuid
                     order by a.sco_id, a.attempt desc) a), '{}'::jsonb)::text as attempts
      from public.scorm_packages p
      join public.course_modules m on m.id = p.module_id
      where p.course_id = ${courseId}::uuid
      order by m.order_index, m.created_at, m.id`,
    tx<Row[]>`select f.bucket, f.name, f.bytes, f.mimetype from private.offline_course_files(${courseId}::uuid) f`,
  ]);

  const questionsOf = new Map<string, Row[]>();
  for (const q of questions) {
    const list = questionsOf.get(String(q.quizId)) ?? [];
    list.push(q);
    questionsOf.set(String(q.quizId), list);
  }
  const learnerName = String(course.learnerName ?? '');
  // Each revision's hashes by its storage prefix; as text, since the driver camel-cases JSON keys (paths here).
  const hashesOf = new Map(packages.map((p) => [
    String(p.storagePrefix),
    p.fileHashes == null ? null : JSON.parse(String(p.fileHashes)) as Record<string, string>,
  ]));
  const scorm = await Promise.all(packages.map((p) => toPackage(config, p, userId, learnerName, hashesOf.get(String(p.storagePrefix)) ?? null)));
  const fileList: OfflineFile[] = files.map((f) => {
    const name = String(f.name);
    const scormFile = f.bucket === 'scorm-content';
    return {
      url: scormFile ? scormContentUrl(config, name) : publicUrl(config, String(f.bucket), f.name)!,
      bytes: Number(f.bytes),
      type: (f.mimetype as string | null) ?? null,
      sha256: scormFile ? scormFileHash(hashesOf, name) : null,
    };
  });
  const changes = [course.updatedAt, ...modules.flatMap((m) => [m.updatedAt, m.quizUpdatedAt]), ...packages.map((p) => p.uploadedAt)]
    .filter((d): d is Date => d instanceof Date)
    .map((d) => d.getTime());
  return {
    personId: userId,
    generatedAt: iso(course.serverNow),
    updatedAt: new Date(Math.max(...changes)).toISOString(),
    course: {
      id: String(course.id),
      title: String(course.title),
      titleCy: (course.titleCy as string | null) ?? null,
      description: String(course.description ?? ''),
      descriptionCy: (course.descriptionCy as string | null) ?? null,
      service: String(course.service),
      image: publicUrl(config, 'course-covers', course.coverImage),
    },
    enrollment: {
      id: String(course.enrollmentId),
      progress: Number(course.progress),
      completed: Boolean(course.completed),
      certificateId: (course.certificateId as string | null) ?? null,
    },
    modules: modules.map((m) => toModule(config, m, questionsOf.get(String(m.quizId)) ?? [])),
    scorm,
    files: fileList,
    totalBytes: fileList.reduce((sum, f) => sum + f.bytes, 0),
  };
}

function toModule(config: Config, m: Row, questions: Row[]): OfflineModule {
  return {
    id: String(m.id),
    title: String(m.title),
    titleCy: (m.titleCy as string | null) ?? null,
    kind: m.kind as OfflineModule['kind'],
    orderIndex: Number(m.orderIndex),
    duration: Number(m.duration),
    content: String(m.content ?? ''),
    contentCy: (m.contentCy as string | null) ?? null,
    image: publicUrl(config, 'module-images', m.image),
    read: Boolean(m.read),
    completed: Boolean(m.completed),
    quizPassed: Boolean(m.quizPassed),
    quiz: m.quizId ? toQuiz(m, questions) : null,
  };
}

function toQuiz(m: Row, questions: Row[]): OfflineQuiz {
  const timeLimit = m.timeLimit == null ? null : Number(m.timeLimit);
  const remaining = m.attemptsRemaining == null ? null : Number(m.attemptsRemaining);
  const nextAttemptAt = isoTimestamp(m.nextAttemptAt);
  const notOffline = timeLimit != null ? 'timed' : remaining === 0 ? 'no_attempts_left' : nextAttemptAt ? 'retry_wait' : null;
  return {
    id: String(m.quizId),
    title: String(m.quizTitle),
    titleCy: (m.quizTitleCy as string | null) ?? null,
    description: (m.quizDescription as string | null) ?? null,
    descriptionCy: (m.quizDescriptionCy as string | null) ?? null,
    passingScore: Number(m.passingScore),
    timeLimit,
    showCorrectAnswers: String(m.showCorrectAnswers) as AnswerDisplay,
    attempts: {
      used: Number(m.attemptsUsed ?? 0),
      max: m.maxAttempts == null ? null : Number(m.maxAttempts),
      remaining,
      nextAttemptAt,
    },
    offline: notOffline === null,
    notOffline,
    questions: notOffline !== null ? [] : questions.map(toLearnerQuestion),
  };
}

interface SavedAttempt {
  completion: string;
  success: string;
  met: boolean;
  suspended: boolean;
  cmi: Record<string, string>;
  totalSeconds: number;
}

/** A package file's hash: the object `<module>/<revision>/<path>` under its revision's prefix. */
function scormFileHash(hashesOf: Map<string, Record<string, string> | null>, name: string): string | null {
  const [moduleId, revision] = name.split('/', 2);
  const prefix = `${moduleId}/${revision}/`;
  const hashes = hashesOf.get(prefix);
  const path = name.slice(prefix.length);
  return hashes && Object.hasOwn(hashes, path) ? hashes[path] : null;
}

/** A package with each SCO's run-time start as private.scorm_open_session would give it now: the
 * latest attempt resumed unless it met the rule (then a new attempt, ab-initio); and its manifest,
 * signed, when the revision has hashes. */
async function toPackage(
  config: Config,
  p: Row,
  userId: string,
  learnerName: string,
  hashes: Record<string, string> | null,
): Promise<OfflineScormPackage> {
  const version = String(p.version) as ScormVersion;
  // As text: the driver camel-cases JSON keys, and these are SCO ids and element names.
  const attempts = JSON.parse(String(p.attempts)) as Record<string, SavedAttempt>;
  const scos = JSON.parse(String(p.scos)) as ({ id: string; title: string; href: string } & Record<string, unknown>)[];
  const contentBase = scormContentUrl(config, String(p.storagePrefix));
  return {
    moduleId: String(p.moduleId),
    version,
    title: String(p.title),
    contentBase,
    minSeconds: Number(p.minSeconds),
    scos: scos.map((s) => {
      const a = attempts[s.id];
      const fresh = !a || a.met;
      return {
        id: s.id,
        title: s.title,
        href: s.href,
        status: scoStatus(a?.completion, a?.success),
        cmi: initialCmi(version, {
          learnerId: userId,
          learnerName,
          entry: fresh ? 'ab-initio' : a.suspended ? 'resume' : '',
          saved: fresh ? {} : a.cmi,
          totalSeconds: fresh ? 0 : Number(a.totalSeconds),
          sco: scoManifestData(s),
        }),
      };
    }),
    manifest: hashes ? await signOfflineManifest(config, String(p.moduleId), contentBase, hashes) : null,
  };
}
