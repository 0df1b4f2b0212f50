// Query keys of the course editor, general to specific (STYLE.md): ['courses'] is shared with the
// catalogue and dashboards, so invalidating it refreshes every course list after a write.
export const editorKeys = {
  courses: ['courses'] as const,
  course: (id: string) => ['courses', id] as const,
  modules: (courseId: string) => ['courses', courseId, 'modules'] as const,
  quiz: (moduleId: string) => ['modules', moduleId, 'quiz', 'authoring'] as const,
};
