// 'Course details': the real module outline (order, title, duration, quiz mark, done mark) and the
// two requirement lines of the specification. A module's title in the reader's language; a Welsh
// reader shown an English title gets it in lang="en-GB" with the "Ddim ar gael yn Gymraeg" mark.
import { Anchor, Badge, Group, List, Paper, Stack, Text, ThemeIcon, Title, VisuallyHidden } from '@mantine/core';
import { IconCircleCheck, IconClock } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { CourseModule } from '@shared/catalogue.ts';
import { NotInWelsh, useLocalise } from '@/components/Localised';
import { labelOf } from '@/lib/i18n/labels';

export function CourseOutline({ courseId, service, modules }: { courseId: string; service: string; modules: CourseModule[] }) {
  const { t } = useTranslation('course');
  const localise = useLocalise();
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="course-details">
      <Stack gap="md">
        <Title order={2} size="h3" id="course-details" tabIndex={-1}>
          {t('courseOutline.title')}
        </Title>
        {modules.length === 0 ? (
          <Text c="dimmed">{t('courseOutline.singleUnit')}</Text>
        ) : (
          <Stack component="ol" gap="xs" style={{ listStyle: 'none', margin: 0, padding: 0 }} aria-label={t('courseOutline.modules')}>
            {modules.map((module, index) => {
              const title = localise(module.title, module.titleCy);
              return (
                <Group component="li" key={module.id} gap="sm" wrap="nowrap" align="flex-start" data-module-row={module.id}>
                  <ThemeIcon
                    variant={module.completed ? 'filled' : 'light'}
                    color={module.completed ? 'green.9' : 'gray'}
                    radius="xl"
                    size="md"
                    aria-hidden="true"
                  >
                    {module.completed ? <IconCircleCheck size={18} /> : <Text size="xs" fw={700}>{index + 1}</Text>}
                  </ThemeIcon>
                  <Stack gap={2} style={{ flex: 1 }}>
                    <Text fw={600}>
                      <VisuallyHidden>{t('courseOutline.modulePrefix', { number: index + 1 })}</VisuallyHidden>
                      {module.content !== null ? (
                        <Anchor component={Link} to={`/course/${courseId}/module/${module.id}`} inherit lang={title.lang}>
                          {title.text}
                        </Anchor>
                      ) : (
                        <span lang={title.lang}>{title.text}</span>
                      )}
                      {module.completed ? <VisuallyHidden>{t('courseOutline.completedMark')}</VisuallyHidden> : null}
                    </Text>
                    <Group gap="xs">
                      <Group gap={4}>
                        <IconClock size={14} aria-hidden="true" />
                        <Text size="xs" c="dimmed">
                          {t('courseOutline.minutes', { count: module.duration })}
                        </Text>
                      </Group>
                      {module.hasQuiz ? (
                        <Badge size="xs" variant="default">
                          {t('courseOutline.quiz')}
                        </Badge>
                      ) : null}
                      {title.fallback ? <NotInWelsh /> : null}
                    </Group>
                  </Stack>
                </Group>
              );
            })}
          </Stack>
        )}
        <div>
          <Title order={3} size="h5" mb="xs">
            {t('courseOutline.requirements')}
          </Title>
          <List size="sm" spacing={4}>
            <List.Item>{t('courseOutline.basicUnderstanding', { service: labelOf('service', service) })}</List.Item>
            <List.Item>{t('courseOutline.introductoryCourses')}</List.Item>
          </List>
        </div>
      </Stack>
    </Paper>
  );
}
