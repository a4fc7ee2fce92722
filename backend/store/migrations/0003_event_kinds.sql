-- Event kinds declared once in the domain package (task.EventKind). Before
-- them, the pipeline wrote a role's mid-run questions to the planner and the
-- planner's answer under the kinds of the user's questions and answers
-- ("question_asked" / "answered" with "internal": true in the payload). They
-- get kinds of their own: planner_asked and planner_answered.
UPDATE events
   SET kind = 'planner_asked', payload = json_remove(payload, '$.internal')
 WHERE kind = 'question_asked'
   AND CASE WHEN json_valid(payload) THEN json_extract(payload, '$.internal') END = 1;

UPDATE events
   SET kind = 'planner_answered', payload = json_remove(payload, '$.internal')
 WHERE kind = 'answered'
   AND CASE WHEN json_valid(payload) THEN json_extract(payload, '$.internal') END = 1;
