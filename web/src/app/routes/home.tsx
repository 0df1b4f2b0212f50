// Home (/): hero and the heading of the catalogue; the catalogue itself arrives with the courses issue.
import { Box, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { PRODUCT_NAME } from '@shared/domain.ts';
import { isServiceCode, SERVICES } from '@shared/services.ts';
import { useUser } from '@/features/auth/api/get-user';

export function HomeRoute() {
  const { data: user } = useUser();
  const [params] = useSearchParams();
  const service = params.get('service');
  const serviceName = isServiceCode(service) ? SERVICES[service].label : null;

  return (
    <Stack gap="xl">
      <title>{serviceName ? `${serviceName} courses | ${PRODUCT_NAME}` : PRODUCT_NAME}</title>
      <Paper withBorder p={{ base: 'lg', sm: 'xl' }} radius="lg">
        <Stack gap="md" maw={720}>
          <Title order={1}>{PRODUCT_NAME}</Title>
          <Text size="lg">Comprehensive training for emergency service professionals across the United Kingdom.</Text>
          <Group>
            <Button component={Link} to={user ? '/my-courses' : '/auth'} size="md">
              Get Started
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Box component="section" aria-labelledby="available-courses">
        <Title order={2} id="available-courses" mb="md">
          Available Courses
        </Title>
        <Text c="dimmed">
          {serviceName ? `Courses for the ${serviceName} will be listed here.` : 'The course catalogue will be listed here.'}
        </Text>
      </Box>
    </Stack>
  );
}
