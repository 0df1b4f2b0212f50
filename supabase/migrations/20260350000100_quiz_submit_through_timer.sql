-- A learner could call private.submit_quiz_attempt directly and so score a timed quiz without its
-- clock. Answers now go only through private.finish_quiz_attempt, which checks the time limit and
-- (running as its owner) still scores through submit_quiz_attempt.
revoke execute on function private.submit_quiz_attempt(uuid, jsonb) from public, anon, authenticated;
